import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Word } from '../../../../src/shared/library';
import { Library, openDatabase } from '../../../../src/main/services/library/library';
import { latestVersion, migrate, migrations } from '../../../../src/main/services/library/migrations';
import { ftsQuery, packWords, unpackWords } from '../../../../src/main/services/library/text';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-lib-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function wordsOf(text: string, startAt = 0, speaker: string | null = null): Word[] {
  return text.split(' ').map((t, i) => ({ text: t, start: startAt + i * 400, end: startAt + i * 400 + 300, confidence: 0.87, speaker }));
}

function addCompleted(lib: Library, title: string, text: string, tags: string[] = []): string {
  const { recordingId, transcriptId } = lib.recordings.add({
    title,
    source: `${title}.wav`,
    sourceKind: 'file',
    sizeBytes: 10,
    region: 'local',
    baseUrl: null,
    options: {},
  });
  lib.transcripts.complete(transcriptId, {
    remoteId: `r-${title}`,
    text,
    words: wordsOf(text),
    sentences: null,
    paragraphs: null,
    confidence: 0.9,
    language: 'en_us',
    model: 'universal-2',
    durationMs: 5000,
  });
  if (tags.length) lib.recordings.setTags(recordingId, tags);
  return recordingId;
}

describe('library migrations', () => {
  it('creates the latest schema from an empty file', () => {
    const db = openDatabase(join(dir, 'a.sqlite'));
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('table') ORDER BY name`).all() as { name: string }[]).map((r) => r.name);
    expect(tables).toEqual(
      expect.arrayContaining(['recordings', 'transcripts', 'words', 'tags', 'speakers', 'cues', 'sentences', 'sentences_fts', 'jobs', 'chats', 'messages']),
    );
    db.close();
  });

  for (const from of migrations.slice(0, -1)) {
    it(`upgrades a library written at version ${from.version} (${from.name}) and keeps its rows`, () => {
      const file = join(dir, `v${from.version}.sqlite`);
      const old = new BetterSqlite3(file);
      migrate(old, from.version);
      expect(old.pragma('user_version', { simple: true })).toBe(from.version);
      old
        .prepare(
          `INSERT INTO recordings (id, title, source, source_kind, created_at, updated_at) VALUES ('r1', 'Old talk', 'old.wav', 'file', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
        )
        .run();
      old
        .prepare(
          `INSERT INTO transcripts (id, recording_id, region, status, text, created_at) VALUES ('t1', 'r1', 'us', 'completed', 'kept across upgrades', '2026-01-01T00:00:00Z')`,
        )
        .run();
      old.prepare(`INSERT INTO tags (recording_id, name) VALUES ('r1', 'archive')`).run();
      old.close();

      const db = openDatabase(file);
      const lib = new Library(dir, db);
      expect(db.pragma('user_version', { simple: true })).toBe(latestVersion);
      const item = lib.recordings.item('r1');
      expect(item).toMatchObject({ title: 'Old talk', status: 'completed', region: 'us', tags: ['archive'], preview: 'kept across upgrades' });
      lib.close();
    });
  }

  it('refuses a library from a newer Verbatim with a clear message', () => {
    const file = join(dir, 'new.sqlite');
    const db = new BetterSqlite3(file);
    db.pragma(`user_version = ${latestVersion + 1}`);
    db.close();
    expect(() => openDatabase(file)).toThrow(/newer Verbatim/);
  });
});

describe('library', () => {
  it('stores words compactly and gives them back exactly', () => {
    const words = wordsOf('one two three four', 0, 'A');
    const blob = packWords(words);
    expect(unpackWords(blob)).toEqual(words);
    expect(blob.length).toBeLessThan(JSON.stringify(words).length);
  });

  it('lists with sort, filter by status/tag/title and pagination', () => {
    const lib = new Library(dir);
    addCompleted(lib, 'Bravo', 'second talk.', ['work']);
    addCompleted(lib, 'Alpha', 'first talk.', ['work', 'home']);
    lib.recordings.add({ title: 'Charlie', source: 'c.wav', sourceKind: 'file', sizeBytes: 1, region: 'eu', baseUrl: null, options: {} });
    expect(lib.recordings.list({ sort: 'title', order: 'asc' }).items.map((i) => i.title)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(lib.recordings.list({ status: ['queued'] }).items.map((i) => i.title)).toEqual(['Charlie']);
    expect(lib.recordings.list({ tag: 'home' }).items.map((i) => i.title)).toEqual(['Alpha']);
    expect(lib.recordings.list({ title: 'rav' }).items.map((i) => i.title)).toEqual(['Bravo']);
    const page = lib.recordings.list({ sort: 'title', order: 'asc', limit: 2, offset: 2 });
    expect(page).toMatchObject({ total: 3, items: [{ title: 'Charlie' }] });
    expect(lib.recordings.tags()).toEqual([
      { name: 'home', count: 1 },
      { name: 'work', count: 2 },
    ]);
    lib.close();
  });

  it('renames, corrects words (text and search follow), names speakers and deletes', () => {
    let lib = new Library(dir);
    const id = addCompleted(lib, 'Meeting', 'We ship the recieve fix today. Then we rest.');
    lib.recordings.rename(id, 'Standup');
    const t = lib.transcripts.get(id);
    expect(t.sentences.map((s) => s.text)).toEqual(['We ship the recieve fix today.', 'Then we rest.']);
    const fixed = lib.edits.correctWords(id, [{ index: 3, text: 'receive' }]);
    expect(fixed.text).toContain('receive fix');
    expect(lib.search.search('receive').map((h) => h.recordingId)).toEqual([id]);
    expect(lib.search.search('recieve')).toEqual([]);
    // The correction is stored beside the original and survives reopening the library.
    expect(fixed.words[3]).toMatchObject({ text: 'receive', original: 'recieve' });
    lib.close();
    const reopened = new Library(dir);
    expect(reopened.transcripts.get(id).words[3]).toMatchObject({ text: 'receive', original: 'recieve' });
    expect(reopened.edits.correctWords(id, [{ index: 3, text: 'receives' }]).words[3]).toMatchObject({ text: 'receives', original: 'recieve' });
    const reverted = reopened.edits.correctWords(id, [{ index: 3, text: 'recieve' }]);
    expect(reverted.words[3]?.original ?? null).toBeNull();
    expect(reopened.transcripts.get(id).words[3]?.original ?? null).toBeNull();
    reopened.close();
    lib = new Library(dir);
    const named = lib.edits.renameSpeaker(id, 'A', 'Dana');
    expect(named.speakers).toEqual([{ id: 'A', name: 'Dana' }]);
    expect(lib.recordings.item(id).title).toBe('Standup');
    expect(lib.recordings.delete([id])).toBe(1);
    expect(lib.search.search('receive')).toEqual([]);
    expect(() => lib.transcripts.get(id)).toThrow(/no longer in the library/);
    lib.close();
  });

  it('exports TXT, SRT, VTT and JSON, preferring the cues as edited through subtitles.commit', () => {
    const lib = new Library(dir);
    const id = addCompleted(lib, 'Talk: part 1/2', 'Hello there. General Kenobi.');
    const srt = lib.exports.render(id, 'srt', { rebuildCharsPerLine: 20 });
    expect(srt.filename).toBe('Talk part 1 2.srt');
    // Rebuilt by the editor's profile (two lines of at most 20 characters, the profile's minimum duration), not a one-line builder of its own.
    expect(srt.content).toBe('1\n00:00:00,000 --> 00:00:02,000\nHello there.\nGeneral Kenobi.\n\n');
    const doc = lib.subtitles.open(id);
    lib.subtitles.save(id, doc.version, 'Replace all cues', { at: 0, remove: doc.cues, insert: [{ start: 0, end: 1500, text: 'Edited cue' }] });
    expect(lib.exports.render(id, 'vtt').content).toBe('WEBVTT\n\n00:00.000 --> 00:01.500\nEdited cue\n\n');
    expect(lib.exports.render(id, 'txt').content).toBe('Hello there. General Kenobi.\n');
    expect(JSON.parse(lib.exports.render(id, 'json').content)).toMatchObject({ item: { id }, words: expect.any(Array) });
    lib.close();
  });

  it('plays the original file when no copy was kept, the copy when there is one, and nothing once the original moved', () => {
    const lib = new Library(dir);
    const original = join(dir, 'talk.wav');
    writeFileSync(original, Buffer.alloc(100, 2));
    const { recordingId } = lib.recordings.add({
      title: 'talk',
      source: 'talk.wav',
      sourceKind: 'file',
      sizeBytes: 100,
      originalPath: original,
      region: 'local',
      baseUrl: null,
      options: {},
    });
    expect(lib.recordings.item(recordingId).hasAudio).toBe(true);
    expect(lib.audio.path(recordingId)).toBe(original);
    expect(lib.audio.path(recordingId, 'redacted')).toBeNull();
    const copy = lib.audio.attach(recordingId, original);
    expect(lib.audio.path(recordingId)).toBe(join(lib.audioDir, copy));
    rmSync(join(lib.audioDir, copy));
    rmSync(original);
    expect(lib.audio.path(recordingId)).toBeNull();
    lib.close();
  });

  it('keeps a length measured before upload when the service (whole seconds) agrees within a second', () => {
    const lib = new Library(dir);
    const lengthAfter = (measured: number | null, service: number | null) => {
      const { recordingId, transcriptId } = lib.recordings.add({
        title: 't',
        source: 't.wav',
        sourceKind: 'file',
        sizeBytes: 1,
        durationMs: measured,
        region: 'local',
        baseUrl: null,
        options: {},
      });
      expect(lib.recordings.item(recordingId).durationMs).toBe(measured);
      lib.transcripts.complete(transcriptId, {
        remoteId: null,
        text: '',
        words: [],
        sentences: null,
        paragraphs: null,
        confidence: null,
        language: null,
        model: null,
        durationMs: service,
      });
      return lib.recordings.item(recordingId).durationMs;
    };
    expect(lengthAfter(5400, 6000)).toBe(5400);
    expect(lengthAfter(5400, 9000)).toBe(9000);
    expect(lengthAfter(null, 6000)).toBe(6000);
    expect(lengthAfter(5400, null)).toBe(5400);
    lib.close();
  });

  it("names speakers in every export: the user's name where given, else Speaker A", () => {
    const lib = new Library(dir);
    const { recordingId: id, transcriptId } = lib.recordings.add({
      title: 'Call',
      source: 'call.wav',
      sourceKind: 'file',
      sizeBytes: 1,
      region: 'us',
      baseUrl: null,
      options: {},
    });
    const words = [...wordsOf('Are you there?', 0, 'A'), ...wordsOf('Yes I am.', 2000, 'B'), ...wordsOf('Good.', 4000, 'A')];
    lib.transcripts.complete(transcriptId, {
      remoteId: 'r',
      text: 'Are you there? Yes I am. Good.',
      words,
      sentences: null,
      paragraphs: null,
      confidence: 1,
      language: 'en',
      model: 'm',
      durationMs: 5000,
    });
    lib.edits.renameSpeaker(id, 'A', 'Dana');
    expect(lib.exports.render(id, 'srt').content).toBe(
      '1\n00:00:00,000 --> 00:00:01,600\nDana: Are you there?\n\n2\n00:00:02,000 --> 00:00:03,600\nSpeaker B: Yes I am.\n\n3\n00:00:04,000 --> 00:00:04,833\nDana: Good.\n\n',
    );
    expect(lib.exports.render(id, 'vtt').content).toContain('00:02.000 --> 00:03.600\nYes I am.');
    expect(lib.exports.render(id, 'vtt', { voices: true }).content).toContain('00:02.000 --> 00:03.600\n<v Speaker B>Yes I am.');
    expect(lib.exports.render(id, 'txt').content).toBe('Dana: Are you there?\n\nSpeaker B: Yes I am.\n\nDana: Good.\n');
    expect(JSON.parse(lib.exports.render(id, 'json').content).speakers).toEqual([
      { id: 'A', name: 'Dana' },
      { id: 'B', name: null },
    ]);
    lib.close();
  });

  it('backs up to a folder and restores into an empty library, skipping what exists', async () => {
    const a = new Library(join(dir, 'a'));
    const id = addCompleted(a, 'Backup me', 'precious words here.', ['keep']);
    writeFileSync(join(dir, 'src.wav'), Buffer.alloc(1000, 1));
    a.audio.attach(id, join(dir, 'src.wav'));
    const out = await a.backup.exportAll(join(dir, 'backup'));
    expect(out).toMatchObject({ items: 1, audioFiles: 1 });
    await expect(a.backup.exportAll(join(dir, 'backup'))).rejects.toThrow(/not empty/);
    const b = new Library(join(dir, 'b'));
    expect(await b.backup.importAll(join(dir, 'backup'))).toMatchObject({ imported: 1, skipped: 0 });
    expect(await b.backup.importAll(join(dir, 'backup'))).toMatchObject({ imported: 0, skipped: 1 });
    expect(b.transcripts.get(id)).toMatchObject({ text: 'precious words here.', item: { tags: ['keep'], hasAudio: true } });
    expect(b.search.search('precious')).toHaveLength(1);
    expect(readdirSync(b.audioDir)).toHaveLength(1);
    a.close();
    b.close();
  });
});

describe('full-text search', () => {
  it('builds safe FTS queries: prefixes, phrases, no syntax injection', () => {
    expect(ftsQuery('desk transcr')).toBe('"desk" "transcr"*');
    expect(ftsQuery('"exact phrase" more')).toBe('"exact phrase" "more"*');
    expect(ftsQuery('more "exact phrase"')).toBe('"more" "exact phrase"');
    expect(ftsQuery('NOT OR AND ( ) * :')).toBe('"not" "or" "and"*');
    expect(ftsQuery('budget of')).toBe('"budget" "of"');
    expect(ftsQuery('  !!! ')).toBeNull();
  });

  it('ranks the best sentence first and returns snippets with marked terms and start times', () => {
    const lib = new Library(dir);
    const a = addCompleted(lib, 'A', 'The weather is fine. Budget budget budget meeting about the budget.');
    const b = addCompleted(lib, 'B', 'Nothing here. We mention the budget once in a long sentence that goes on and on and on.');
    const hits = lib.search.search('budget');
    expect(hits.map((h) => h.recordingId)).toEqual([a, b]);
    expect(hits[0]!.startMs).toBe(4 * 400);
    expect(hits[0]!.snippet.filter((p) => p.match).map((p) => p.text.toLowerCase())).toContain('budget');
    expect(hits[1]!.startMs).toBe(2 * 400);
    expect(lib.search.search('"budget meeting"').map((h) => h.recordingId)).toEqual([a]);
    lib.close();
  });

  it('lists and searches a 10,000-transcript library (its times are printed; bench/app-fts.ts measures them)', () => {
    const lib = new Library(dir);
    const vocab = 'alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega river mountain forest ocean desert city village road bridge'.split(' ');
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const insert = () =>
      lib.transaction(() => {
        for (let i = 0; i < 10_000; i++) {
          const ws = Array.from({ length: 60 }, (_, k) => vocab[Math.floor(rand() * vocab.length)]! + (k % 12 === 11 ? '.' : ''));
          if (i === 4242) ws.splice(5, 0, 'zanzibar');
          addCompleted(lib, `T${i}`, ws.join(' '));
        }
      });
    insert();
    const l0 = performance.now();
    const page = lib.recordings.list({ sort: 'title', order: 'asc', offset: 5000, limit: 100 });
    const listMs = performance.now() - l0;
    expect(page).toMatchObject({ total: 10_000, items: expect.any(Array) });
    expect(page.items).toHaveLength(100);
    const times: number[] = [];
    for (const q of ['river', 'mountain forest', 'omeg', '"city village"', 'zanzibar']) {
      const t0 = performance.now();
      const hits = lib.search.search(q, { limit: 20 });
      times.push(performance.now() - t0);
      expect(hits.length).toBeGreaterThan(0);
    }
    const rare = lib.search.search('zanzibar');
    expect(rare).toHaveLength(1);
    expect(rare[0]!.title).toBe('T4242');
    console.log(`10,000 transcripts: list page ${listMs.toFixed(1)} ms; FTS ${times.map((t) => t.toFixed(1)).join(', ')} ms`);
    lib.close();
    // Building 10,000 transcripts is setup, not the figure under test: slow on a shared CPU.
  });
});
