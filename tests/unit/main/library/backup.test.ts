/**
 * Restoring a backup is reading untrusted input (issue 12.4): columns come
 * from the schema, audio names are the library's own, every path stays in the
 * library folder, and a recording's original path is never imported.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Library } from '../../../../src/main/services/library/library';
import { builtInProfiles, commands } from '../../../../src/shared/subtitles/index';
import { addCompleted, commitCueEdit } from '../../../support/library';
import { resealBackup } from '../../../support/backup';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-backup-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const RID = '0b6f0b52-5f0e-4a4e-9a57-2d7c5a1f0001';
const TID = '0b6f0b52-5f0e-4a4e-9a57-2d7c5a1f0002';

function backup(recording: Record<string, unknown>, files: Record<string, string> = {}): string {
  const b = join(dir, 'backup');
  mkdirSync(join(b, 'audio'), { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(b, 'audio', name), content);
  const now = '2026-01-01T00:00:00.000Z';
  writeFileSync(
    join(b, 'library.json'),
    JSON.stringify({
      format: 'verbatim-library',
      version: 1,
      tables: {
        recordings: [{ id: RID, title: 'Restored', source: 'x.wav', source_kind: 'file', created_at: now, updated_at: now, ...recording }],
        transcripts: [{ id: TID, recording_id: RID, region: 'local', status: 'completed', text: 'hello', created_at: now, sentences: '[]', paragraphs: '[]' }],
        tags: [{ recording_id: RID, name: 'kept' }],
      },
    }),
  );
  return b;
}

/** Counts the turns of the event loop (one setImmediate each) until stop(): `now` is the current turn's number. */
function countTurns(): { readonly now: number; stop(): void } {
  let now = 0;
  let counting = true;
  const count = () => {
    now++;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  return {
    get now() {
      return now;
    },
    stop: () => void (counting = false),
  };
}

describe('backup import', () => {
  it('takes column names from the schema and ignores keys that are not columns (no SQL from the file)', async () => {
    const lib = new Library(join(dir, 'lib'));
    const b = backup({ "title) VALUES ('x', 'y', 'z', 'w', 'v', 'u'); DROP TABLE tags; --": 1, not_a_column: 'ignored' });
    expect(await lib.backup.importAll(b)).toMatchObject({ imported: 1, skipped: 0 });
    expect(lib.recordings.item(RID)).toMatchObject({ title: 'Restored', tags: ['kept'] });
    expect(lib.recordings.tags()).toEqual([{ name: 'kept', count: 1 }]);
    lib.close();
  });

  it('refuses audio names the library does not make: nothing is written outside the library, and delete removes nothing outside it', async () => {
    const lib = new Library(join(dir, 'lib'));
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'not yours');
    const b = backup({ audio_file: '../../outside.txt', redacted_audio_file: `../${RID}.redacted.mp3` });
    await lib.backup.importAll(b);
    expect(lib.audio.path(RID)).toBeNull();
    expect(lib.audio.path(RID, 'redacted')).toBeNull();
    expect(lib.recordings.item(RID).hasAudio).toBe(false);
    expect(readdirSync(join(dir, 'lib', 'audio'))).toEqual([]);
    lib.recordings.delete([RID]);
    expect(readFileSync(outside, 'utf8')).toBe('not yours');
    lib.close();
  });

  it('never imports original_path, so audioPath cannot answer a file elsewhere on this machine', async () => {
    const lib = new Library(join(dir, 'lib'));
    const elsewhere = join(dir, 'secret.wav');
    writeFileSync(elsewhere, 'private');
    await lib.backup.importAll(backup({ original_path: elsewhere }));
    expect(lib.audio.path(RID)).toBeNull();
    expect(lib.recordings.item(RID).hasAudio).toBe(false);
    lib.close();
  });

  it('copies audio the library named itself, into the library folder', async () => {
    const lib = new Library(join(dir, 'lib'));
    await lib.backup.importAll(backup({ audio_file: `${RID}.wav` }, { [`${RID}.wav`]: 'RIFF' }));
    expect(lib.audio.path(RID)).toBe(join(dir, 'lib', 'audio', `${RID}.wav`));
    expect(existsSync(join(dir, 'lib', 'audio', `${RID}.wav`))).toBe(true);
    lib.close();
  });

  it('answers a clear error for a backup that is not one, and skips rows with values SQLite cannot hold', async () => {
    const lib = new Library(join(dir, 'lib'));
    mkdirSync(join(dir, 'junk'));
    writeFileSync(join(dir, 'junk', 'library.json'), JSON.stringify({ format: 'verbatim-library', tables: 7 }));
    await expect(lib.backup.importAll(join(dir, 'junk'))).rejects.toThrow(/not a Verbatim library backup/);
    expect(await lib.backup.importAll(backup({ title: { nested: true } }))).toMatchObject({ imported: 0, skipped: 1 });
    lib.close();
  });
});

describe('backup round trip', () => {
  it('brings back edited cues, their undo history, saved profiles, waveform peaks, a chat over a recording and an insight into an empty library', async () => {
    const src = new Library(join(dir, 'src'));
    const text = 'Welcome to the quarterly review. We will look at the market, the budget and the product launch.';
    const words = text.split(' ').map((t, i) => ({ text: t, start: 300 + i * 350, end: 600 + i * 350, confidence: 0.9, speaker: null }));
    const { recordingId: id, transcriptId } = addCompleted(src, 'Review', words);
    // Audio and its peaks.
    const wav = join(dir, 'tone.wav');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-ar', '16000', '-ac', '1', wav]);
    src.audio.attach(id, wav);
    const peaks = await src.subtitles.peaks(id, src.subtitles.audioOf(id));
    // One cue edit that changes a word, one that only retimes.
    const cues = src.subtitles.open(id).cues;
    const at = cues.findIndex((c) => c.text.includes('budget'));
    commitCueEdit(src, id, commands.editText, { index: at, text: cues[at]!.text.replace('budget', 'forecast') }, [at]);
    commitCueEdit(src, id, commands.shift, { ms: 120, all: false }, [at]);
    const before = src.subtitles.open(id);
    const profile = { ...builtInProfiles[0]!, id: 'user-broadcast', name: 'Broadcast 37', maxCharsPerLine: 37 };
    src.subtitles.saveProfile(profile);
    src.subtitles.setProfile(id, profile.id);
    const chat = src.chats.create({ scope: 'recordings', recordingIds: [id], title: 'Budget questions', model: null });
    src.chats.addMessage(chat.id, { role: 'user', content: 'What about the forecast?' });
    src.chats.addMessage(chat.id, { role: 'assistant', content: 'It is reviewed this quarter.' });
    src.insights.save(transcriptId, '', null, { kind: 'summary', bullets: ['The quarterly review covers the forecast.'] });
    await src.backup.exportAll(join(dir, 'backup'));
    src.close();

    const lib = new Library(join(dir, 'restored'));
    expect(await lib.backup.importAll(join(dir, 'backup'))).toMatchObject({ imported: 1, skipped: 0 });
    const after = lib.subtitles.open(id);
    expect(after).toMatchObject({ edited: true, profileId: 'user-broadcast', version: before.version });
    expect(after.cues).toEqual(before.cues);
    expect(after.cues[at]!.text).toContain('forecast');
    expect(after.undo).toEqual(['Edit text', 'Shift by milliseconds']);
    expect(after.profiles.find((p) => p.id === 'user-broadcast')).toEqual(profile);
    expect(lib.transcripts.get(id).words.find((w) => w.text === 'forecast')).toMatchObject({ original: 'budget' });
    expect(lib.subtitles.storedPeaks(id)).toEqual(peaks);
    // The history works: two undos give back the generated cues and the original word.
    let v = lib.subtitles.undo(id, after.version).version;
    v = lib.subtitles.undo(id, v).version;
    expect(
      lib.subtitles
        .open(id)
        .cues.map((c) => c.text)
        .join(' '),
    ).toContain('budget');
    expect(lib.subtitles.redo(id, v).label).toBe('Edit text');
    const chats = lib.chats.list();
    expect(chats).toHaveLength(1);
    expect(chats[0]).toMatchObject({ id: chat.id, title: 'Budget questions' });
    expect(lib.chats.detail(chat.id)).toMatchObject({ recordings: [{ id, title: 'Review' }] });
    expect(lib.chats.messages(chat.id).map((m) => m.content)).toEqual(['What about the forecast?', 'It is reviewed this quarter.']);
    expect(lib.chats.list({ query: 'forecast' }).map((c) => c.id)).toEqual([chat.id]);
    expect(lib.insights.list(transcriptId)).toMatchObject([{ kind: 'summary', result: { bullets: ['The quarterly review covers the forecast.'] } }]);
    lib.close();
  });

  it('skips subtitle rows whose stored JSON the views could not read, and chats over no imported recording', async () => {
    const lib = new Library(join(dir, 'lib'));
    const b = backup({});
    const file = join(b, 'library.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as { tables: Record<string, unknown[]> };
    const now = '2026-01-01T00:00:00.000Z';
    json.tables.cues = [{ transcript_id: TID, data: '{"not":"cues"}', updated_at: now }];
    json.tables.subtitle_history = [
      { transcript_id: TID, seq: 1, label: 'bad', splice: 'not json', undone: 0 },
      { transcript_id: 'someone-elses-transcript', seq: 1, label: 'x', splice: '{"at":0,"remove":[],"insert":[]}', undone: 0 },
    ];
    json.tables.subtitle_profiles = [
      { id: 'netflix', data: JSON.stringify({ ...builtInProfiles[0]!, maxCharsPerLine: 99 }), created_at: now },
      { id: 'mine', data: JSON.stringify({ ...builtInProfiles[0]!, id: 'other' }), created_at: now },
      { id: 'broken', data: '{"id":"broken"}', created_at: now },
    ];
    json.tables.waveform_peaks = [{ recording_id: RID, rate: 0, duration_ms: 10, data: { base64: 'AAAA' } }];
    json.tables.chats = [{ id: 'c1', recording_id: null, title: 'Over another library', model: null, created_at: now, updated_at: now, scope: 'recordings' }];
    json.tables.chat_recordings = [{ chat_id: 'c1', recording_id: 'not-in-this-backup', position: 0 }];
    writeFileSync(file, JSON.stringify(json));
    expect(await lib.backup.importAll(b)).toMatchObject({ imported: 1, skipped: 0 });
    const doc = lib.subtitles.open(RID);
    expect(doc).toMatchObject({ edited: false, undo: [] });
    expect(lib.subtitles.profiles().map((p) => p.id)).toEqual(['netflix', 'social', 'lenient']);
    expect(lib.subtitles.profile('netflix').maxCharsPerLine).toBe(42);
    expect(lib.subtitles.storedPeaks(RID)).toBeNull();
    expect(lib.chats.list()).toEqual([]);
    lib.close();
  });
});

describe('reading library.json', () => {
  it('hands on at most 1,000 rows between two turns of the event loop, however many one read holds', async () => {
    const { open } = await import('node:fs/promises');
    const { backupRows } = await import('../../../../src/main/services/library/backup-reader');
    const file = join(dir, 'library.json');
    // 9,000 rows of ~20 bytes: one 256 KiB read holds them all.
    const rows = Array.from({ length: 9_000 }, (_, i) => `{"id":"r${i}"}`).join(',');
    writeFileSync(file, `{"format":"verbatim-library","tables":{"recordings":[${rows}]}}`);
    const turns = countTurns();
    const fh = await open(file, 'r');
    const perTurn = new Map<number, number>();
    let seen = 0;
    try {
      for await (const { table } of backupRows(fh, (await fh.stat()).size, { bytes: 0, skipped: 0, reasons: [] })) {
        expect(table).toBe('recordings');
        seen++;
        perTurn.set(turns.now, (perTurn.get(turns.now) ?? 0) + 1);
      }
    } finally {
      turns.stop();
      await fh.close();
    }
    expect(seen).toBe(9_000);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(1_000);
  });
});

describe('telling what a restore added', () => {
  it('names at most 1,000 recordings in one change, one change a turn, and every recording once', async () => {
    const b = join(dir, 'many');
    mkdirSync(b, { recursive: true });
    const now = '2026-01-01T00:00:00.000Z';
    const ids = Array.from({ length: 2_500 }, (_, i) => `0b6f0b52-5f0e-4a4e-9a57-${String(i).padStart(12, '0')}`);
    const recordings = ids.map((id) => ({ id, title: id, source: 'x.wav', source_kind: 'file', created_at: now, updated_at: now }));
    writeFileSync(join(b, 'library.json'), JSON.stringify({ format: 'verbatim-library', version: 1, tables: { recordings } }));
    const lib = new Library(join(dir, 'lib'));
    const turns = countTurns();
    const told: { turn: number; ids: string[] }[] = [];
    const off = lib.onChange((c) => {
      if (c.reason === 'imported') told.push({ turn: turns.now, ids: c.ids });
    });
    try {
      expect(await lib.backup.importAll(b)).toMatchObject({ imported: 2_500, skipped: 0 });
    } finally {
      turns.stop();
      off();
      lib.close();
    }
    expect(Math.max(...told.map((t) => t.ids.length))).toBeLessThanOrEqual(1_000);
    expect(new Set(told.map((t) => t.turn)).size).toBe(told.length);
    expect(told.flatMap((t) => t.ids).sort()).toEqual(ids);
  });
});

describe('backup of review, speakers and live extras', () => {
  it('brings back accepted words, the speaker note, live translations and summaries, and never writes a voiceprint into the backup', async () => {
    const src = new Library(join(dir, 'src'));
    const words = 'Phebe said the budget is fine'.split(' ').map((t, i) => ({ text: t, start: i * 400, end: i * 400 + 300, confidence: 0.4, speaker: 'A' }));
    const { recordingId: id, transcriptId } = addCompleted(src, 'Weekly', words);
    src.review.accept(id, transcriptId, [0, 3], true);
    src.voices.relabel(id, transcriptId, words, { speakers: 1, merged: 2, asked: 'auto' });
    src.voices.saveTurns(transcriptId, [{ firstWord: 0, lastWord: 5, start: 0, end: 2300, model: 'm', vector: Float32Array.of(0.25, 0.5) }]);
    const voice = src.voices.people.remember(id, 'Dana', 'm', [{ vector: Float32Array.of(0.25, 0.5), ms: 2300 }], 'A');
    src.liveExtras.saveTranslation(
      id,
      { key: 't1', startMs: 0, endMs: 2300, text: 'Phebe said the budget is fine' },
      'fr',
      'Phebe a dit que le budget va bien',
    );
    const summary = {
      id: 's1',
      recordingId: id,
      fromMs: 0,
      toMs: 2300,
      status: 'done' as const,
      content: 'The budget is fine [0:00].',
      citations: [{ startMs: 0, label: '0:00' }],
      model: null,
      extractive: true,
      error: null,
      createdAt: new Date().toISOString(),
    };
    src.liveExtras.saveSummary(summary);
    // Remembered voices are left out unless the user includes them.
    await src.backup.exportAll(join(dir, 'backup'), { voiceprints: false });
    src.close();

    // The file holds no voice table and no print's bytes.
    const file = readFileSync(join(dir, 'backup', 'library.json'), 'utf8');
    const tables = Object.keys((JSON.parse(file) as { tables: Record<string, unknown> }).tables);
    for (const t of ['voices', 'voice_prints', 'voice_matches', 'turn_voices']) expect(tables).not.toContain(t);
    expect(file).not.toContain(voice);
    expect(file).not.toContain(Buffer.from(Float32Array.of(0.25, 0.5).buffer).toString('base64'));

    const lib = new Library(join(dir, 'restored'));
    expect(await lib.backup.importAll(join(dir, 'backup'))).toMatchObject({ imported: 1, skipped: 0 });
    expect(lib.review.accepted(id, transcriptId)).toEqual([0, 3]);
    expect(lib.voices.note(transcriptId)).toEqual({ speakers: 1, merged: 2, asked: 'auto' });
    expect(lib.liveExtras.translations(id)).toMatchObject([{ key: 't1', language: 'fr', text: 'Phebe a dit que le budget va bien' }]);
    expect(lib.liveExtras.summaries(id)).toEqual([summary]);
    expect(lib.voices.people.list()).toEqual([]);
    expect(lib.voices.turns(transcriptId)).toEqual([]);
    lib.close();
  });
});

describe('backup of remembered voices, when the user includes them', () => {
  const printOf = (v: number[]) => Buffer.from(Float32Array.from(v).buffer).toString('base64');
  /** A library with one recording: Dana speaks as A, Lee as B, both remembered, with the turns' voiceprints kept. */
  function voiced(at: string): { lib: Library; id: string; transcriptId: string; dana: string; lee: string } {
    const lib = new Library(at);
    const words = 'Dana says the budget is fine. Lee agrees with that.'.split(' ').map((t, i) => ({
      text: t,
      start: i * 400,
      end: i * 400 + 300,
      confidence: 0.9,
      speaker: i < 6 ? 'A' : 'B',
    }));
    const { recordingId: id, transcriptId } = addCompleted(lib, 'Weekly', words);
    lib.voices.saveTurns(transcriptId, [
      { firstWord: 0, lastWord: 5, start: 0, end: 2300, model: 'm', vector: Float32Array.of(0.25, 0.5) },
      { firstWord: 6, lastWord: 9, start: 2400, end: 3900, model: 'm', vector: Float32Array.of(0.75, -0.5) },
    ]);
    const dana = lib.voices.people.remember(id, 'Dana', 'm', [{ vector: Float32Array.of(0.25, 0.5), ms: 2300 }], 'A');
    lib.voices.people.setMatch(id, transcriptId, 'A', dana, 1);
    const lee = lib.voices.people.remember(id, 'Lee', 'm', [{ vector: Float32Array.of(0.75, -0.5), ms: 1500 }], 'B');
    lib.voices.people.setMatch(id, transcriptId, 'B', lee, 1);
    return { lib, id, transcriptId, dana, lee };
  }

  it('carries the voice tables and the voiceprints, and a restore brings the voices back with their recordings', async () => {
    const src = voiced(join(dir, 'src'));
    await src.lib.backup.exportAll(join(dir, 'backup'), { voiceprints: true });
    src.lib.close();

    const file = readFileSync(join(dir, 'backup', 'library.json'), 'utf8');
    const tables = (JSON.parse(file) as { tables: Record<string, unknown[]> }).tables;
    expect(tables.voices).toHaveLength(2);
    expect(tables.voice_prints).toHaveLength(2);
    expect(tables.voice_matches).toHaveLength(2);
    expect(tables.turn_voices).toHaveLength(2);
    expect(file).toContain(src.dana);
    expect(file).toContain(printOf([0.25, 0.5]));

    const lib = new Library(join(dir, 'restored'));
    expect(await lib.backup.importAll(join(dir, 'backup'))).toMatchObject({ imported: 1, skipped: 0, notes: [] });
    const list = lib.voices.people.list();
    expect(list.map((v) => [v.id, v.name, v.prints, v.recordings.map((r) => [r.id, r.similarity])])).toEqual([
      [src.dana, 'Dana', 1, [[src.id, null]]],
      [src.lee, 'Lee', 1, [[src.id, null]]],
    ]);
    expect(lib.voices.people.matches(src.transcriptId).map((m) => [m.speaker, m.name])).toEqual([
      ['A', 'Dana'],
      ['B', 'Lee'],
    ]);
    expect(lib.voices.turns(src.transcriptId).map((t) => [...(t.vector ?? [])])).toEqual([
      [0.25, 0.5],
      [0.75, -0.5],
    ]);
    expect([...lib.voices.people.known('m').find((v) => v.name === 'Dana')!.vector].map((x) => Math.round(x * 1000))).toEqual([447, 894]);
    lib.close();
  });

  it('a restore a crash cut short loses the voices it added at the next start, with their voiceprints', async () => {
    const src = voiced(join(dir, 'src'));
    await src.lib.backup.exportAll(join(dir, 'backup'), { voiceprints: true });
    src.lib.close();
    const lib = new Library(join(dir, 'restored'));
    await lib.backup.importAll(join(dir, 'backup'));
    expect(lib.voices.people.list()).toHaveLength(2);
    lib.close();
    // What the journal holds when the power goes before the import's end.
    const db = new Database(join(dir, 'restored', 'library.sqlite'));
    const note = db.prepare(`INSERT INTO import_journal (kind, id) VALUES (?, ?)`);
    for (const [kind, id] of [
      ['recording', src.id],
      ['voice', src.dana],
      ['voice', src.lee],
    ])
      note.run(kind, id);
    db.close();
    const again = new Library(join(dir, 'restored'));
    expect(again.voices.people.list()).toEqual([]);
    expect(again.voices.people.known('m')).toEqual([]);
    again.close();
  });

  it('says in words when the folder cannot be written (a file in the way), instead of failing inside', async () => {
    const src = voiced(join(dir, 'src'));
    writeFileSync(join(dir, 'a-file'), 'x');
    await expect(src.lib.backup.exportAll(join(dir, 'a-file', 'backup'), { voiceprints: true })).rejects.toThrow(
      expect.objectContaining({ code: 'bad_request', message: expect.stringMatching(/could not be written into .*a-file.*Choose a folder you can write to/) }),
    );
    await expect(src.lib.backup.exportAll(join(dir, 'a-file'))).rejects.toThrow(expect.objectContaining({ code: 'bad_request' }));
    src.lib.close();
  });

  it('restores only voice rows of the recordings it adds, with whole vectors and numbers in range', async () => {
    const src = voiced(join(dir, 'src'));
    await src.lib.backup.exportAll(join(dir, 'backup'), { voiceprints: true });
    src.lib.close();
    const path = join(dir, 'backup', 'library.json');
    const json = JSON.parse(readFileSync(path, 'utf8')) as { tables: Record<string, Record<string, unknown>[]> };
    const t = json.tables;
    const print = t.voice_prints![0]!;
    const now = '2026-01-01T00:00:00.000Z';
    t.voices!.push({ id: 'eve', name: 'Eve', model: 'm', created_at: now, updated_at: now });
    t.voice_prints!.push(
      // A recording the backup does not hold, a vector of three bytes, a NaN, a print of a voice that is not in the file.
      { ...print, recording_id: 'elsewhere', voice_id: 'eve' },
      { ...print, vector: { base64: Buffer.from([1, 2, 3]).toString('base64') } },
      { ...print, vector: { base64: printOf([Number.NaN, 1]) } },
      { ...print, voice_id: 'nobody' },
    );
    t.voice_matches!.push({ ...t.voice_matches![0]!, speaker: 'C', similarity: 5 }, { ...t.voice_matches![0]!, transcript_id: 'elsewhere', speaker: 'D' });
    t.turn_voices!.push({ ...t.turn_voices![0]!, idx: 2, first_word: 9, last_word: 3 });
    writeFileSync(path, JSON.stringify(json));
    resealBackup(join(dir, 'backup'));

    const lib = new Library(join(dir, 'restored'));
    expect(await lib.backup.importAll(join(dir, 'backup'))).toMatchObject({ imported: 1, skipped: 0 });
    expect(lib.voices.people.list().map((v) => [v.name, v.prints])).toEqual([
      ['Dana', 1],
      ['Lee', 1],
    ]);
    expect(lib.voices.people.matches(src.transcriptId).map((m) => m.speaker)).toEqual(['A', 'B']);
    expect(lib.voices.turns(src.transcriptId)).toHaveLength(2);
    lib.close();
  });

  it("refuses a turn whose last word lies past its transcript's words (re-cluster reads words by these numbers)", async () => {
    const src = voiced(join(dir, 'src'));
    await src.lib.backup.exportAll(join(dir, 'backup'), { voiceprints: true });
    src.lib.close();
    const path = join(dir, 'backup', 'library.json');
    const json = JSON.parse(readFileSync(path, 'utf8')) as { tables: Record<string, Record<string, unknown>[]> };
    // The transcript has 10 words (0–9): the second turn now ends at word 10.
    json.tables.turn_voices![1]!.last_word = 10;
    writeFileSync(path, JSON.stringify(json));
    resealBackup(join(dir, 'backup'));
    const lib = new Library(join(dir, 'restored'));
    expect(await lib.backup.importAll(join(dir, 'backup'))).toMatchObject({ imported: 1 });
    expect(lib.voices.turns(src.transcriptId).map((t) => [t.firstWord, t.lastWord])).toEqual([[0, 5]]);
    lib.close();
  });

  it('adds no voice to People when every one of its voiceprints is refused', async () => {
    const src = voiced(join(dir, 'src'));
    await src.lib.backup.exportAll(join(dir, 'backup'), { voiceprints: true });
    src.lib.close();
    const path = join(dir, 'backup', 'library.json');
    const json = JSON.parse(readFileSync(path, 'utf8')) as { tables: Record<string, Record<string, unknown>[]> };
    for (const p of json.tables.voice_prints!) p.vector = { base64: Buffer.from([1, 2, 3]).toString('base64') };
    writeFileSync(path, JSON.stringify(json));
    resealBackup(join(dir, 'backup'));
    const lib = new Library(join(dir, 'restored'));
    expect(await lib.backup.importAll(join(dir, 'backup'))).toMatchObject({ imported: 1 });
    expect(lib.voices.people.list()).toEqual([]);
    expect(lib.voices.people.matches(src.transcriptId)).toEqual([]);
    lib.close();
  });

  it('takes voice names by the one rule: a name with a control character stays out, and "ökan" joins this library\'s "Ökan"', async () => {
    const src = voiced(join(dir, 'src'));
    await src.lib.backup.exportAll(join(dir, 'backup'), { voiceprints: true });
    src.lib.close();
    const path = join(dir, 'backup', 'library.json');
    const json = JSON.parse(readFileSync(path, 'utf8')) as { tables: Record<string, Record<string, unknown>[]> };
    for (const v of json.tables.voices!) v.name = v.name === 'Dana' ? 'Dana\u0007' : 'ökan';
    writeFileSync(path, JSON.stringify(json));
    resealBackup(join(dir, 'backup'));
    const lib = new Library(join(dir, 'restored'));
    const own = addCompleted(lib, 'Mine', [{ text: 'hi', start: 0, end: 300, confidence: 0.9, speaker: 'A' }]).recordingId;
    lib.voices.people.remember(own, 'Ökan', 'm', [{ vector: Float32Array.of(0.5, 0.5), ms: 900 }], 'A');
    expect(await lib.backup.importAll(join(dir, 'backup'))).toMatchObject({ imported: 1 });
    expect(lib.voices.people.list().map((v) => [v.name, v.prints])).toEqual([['Ökan', 2]]);
    lib.close();
  });

  it('joins a restored voice to the one this library remembers by that name, and says why one of another model stays out', async () => {
    const src = voiced(join(dir, 'src'));
    await src.lib.backup.exportAll(join(dir, 'backup'), { voiceprints: true });
    src.lib.close();
    const lib = new Library(join(dir, 'restored'));
    const words = 'Hello there'.split(' ').map((t, i) => ({ text: t, start: i * 400, end: i * 400 + 300, confidence: 0.9, speaker: 'A' }));
    const own = addCompleted(lib, 'Here already', words);
    const dana = lib.voices.people.remember(own.recordingId, 'dana', 'm', [{ vector: Float32Array.of(0.3, 0.4), ms: 900 }], 'A');
    const lee = lib.voices.people.remember(own.recordingId, 'Lee', 'other-model', [{ vector: Float32Array.of(0.3, 0.4), ms: 900 }], 'A');

    const r = await lib.backup.importAll(join(dir, 'backup'));
    expect(r).toMatchObject({ imported: 1, skipped: 0 });
    expect(r.notes).toEqual([`Lee's voice was not restored: this library remembers a voice of that name from another speaker model.`]);
    const list = lib.voices.people.list();
    expect(list.map((v) => [v.id, v.name, v.prints])).toEqual([
      [dana, 'dana', 2],
      [lee, 'Lee', 1],
    ]);
    expect(lib.voices.people.matches(src.transcriptId).map((m) => [m.speaker, m.voiceId])).toEqual([['A', dana]]);
    lib.close();
  });
});
