/**
 * Backups whole or refused: each file is written under a temporary name and
 * renamed, manifest.json last with sizes, SHA-256 hashes and row counts; a
 * restore refuses a library.json that does not close, a count or a hash that
 * differs, before it writes anything. And a words blob is unpacked only as far
 * as its word count allows (600 KB that inflates to 600 MB is refused).
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Library } from '../../../../src/main/services/library/library';
import { openDatabase } from '../../../../src/main/services/library/db';
import { addCompleted } from '../../../support/library';
import { resealBackup } from '../../../support/backup';

let dir: string;
let backup: string;
const ITEMS = 40;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-backup-whole-'));
  backup = join(dir, 'backup');
  const src = new Library(join(dir, 'src'));
  writeFileSync(join(dir, 'take.wav'), Buffer.alloc(64 * 1024, 3));
  for (let i = 0; i < ITEMS; i++) {
    const words = `item ${i} talks about the quarterly budget and the launch plan at length`
      .split(' ')
      .map((text, k) => ({ text, start: k * 300, end: k * 300 + 250, confidence: 0.9, speaker: null }));
    const { recordingId } = addCompleted(src, `Item ${i}`, words);
    if (i % 8 === 0) src.audio.attach(recordingId, join(dir, 'take.wav'));
  }
  await src.backup.exportAll(backup);
  src.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the backup to damage. */
function copy(name: string): string {
  const to = join(dir, name);
  cpSync(backup, to, { recursive: true });
  return to;
}

/** What a restore left in a library: its items, audio files, voices and the import journal. */
function contents(lib: Library): { items: number; audio: string[]; voices: number } {
  return { items: lib.recordings.list({ limit: 500 }).total, audio: readdirSync(lib.audioDir), voices: lib.voices.people.list().length };
}

describe('making a backup', () => {
  it('writes every file whole and the manifest last: no temporary file is left, and the manifest lists each file with its size and hash', async () => {
    const names = readdirSync(backup).sort();
    expect(names).toEqual(['audio', 'library.json', 'manifest.json']);
    expect(readdirSync(join(backup, 'audio')).filter((n) => n.startsWith('.'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(backup, 'manifest.json'), 'utf8')) as {
      counts: Record<string, number>;
      files: Record<string, { bytes: number; sha256: string }>;
    };
    expect(manifest.counts.recordings).toBe(ITEMS);
    expect(manifest.counts.words).toBe(ITEMS);
    expect(Object.keys(manifest.files).sort()).toEqual(['library.json', ...readdirSync(join(backup, 'audio')).map((n) => `audio/${n}`)].sort());
    expect(manifest.files['library.json']!.bytes).toBe(readFileSync(join(backup, 'library.json')).length);
    // And it restores whole, its progress counting the check against the manifest as a third read of library.json.
    const lib = new Library(join(dir, 'whole'));
    const progress: { done: number; total: number }[] = [];
    expect(await lib.backup.importAll(backup, { progress: (p) => progress.push(p) })).toMatchObject({ imported: ITEMS, skipped: 0, notes: [] });
    const size = readFileSync(join(backup, 'library.json')).length;
    expect(progress[0]).toEqual({ done: size, total: 3 * size });
    expect(progress.at(-1)).toEqual({ done: 3 * size, total: 3 * size });
    expect(contents(lib)).toMatchObject({ items: ITEMS, audio: expect.arrayContaining([expect.any(String)]) });
    lib.close();
  });
});

describe('making a backup of a library', () => {
  it('writes between turns of the event loop (one synchronous read and write of every row before), reporting its progress', async () => {
    const lib = new Library(join(dir, 'src'));
    let turns = 0;
    let on = true;
    const tick = () => {
      if (!on) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const progress: { done: number; total: number }[] = [];
    const out = await lib.backup.exportAll(join(dir, 'turns'), { progress: (p) => progress.push(p) });
    on = false;
    expect(out.items).toBe(ITEMS);
    expect(turns).toBeGreaterThan(1);
    expect(progress.at(-1)).toMatchObject({ done: progress.at(-1)!.total });
    lib.close();
  });
});

describe('a library changed while its backup is made', () => {
  it('backs up the library as it was when the backup began, consistent with its manifest', async () => {
    const lib = new Library(join(dir, 'busy'));
    const ids = Array.from(
      { length: 200 },
      (_, i) => addCompleted(lib, `Busy ${i}`, [{ text: `word${i}`, start: 0, end: 300, confidence: 0.9, speaker: null }]).recordingId,
    );
    let changed = false;
    const made = await lib.backup.exportAll(join(dir, 'busy-backup'), {
      // Deleted and added while the backup is running (its first report comes before any row is written).
      progress: () => {
        if (changed) return;
        changed = true;
        lib.recordings.delete(ids.slice(0, 50));
        addCompleted(lib, 'Added meanwhile', [{ text: 'late', start: 0, end: 300, confidence: 0.9, speaker: null }]);
      },
    });
    expect(changed).toBe(true);
    expect(made.items).toBe(200);
    const back = new Library(join(dir, 'busy-restored'));
    expect(await back.backup.importAll(join(dir, 'busy-backup'))).toMatchObject({ imported: 200, notes: [] });
    expect(back.recordings.list({ limit: 500 }).items.map((r) => r.title)).not.toContain('Added meanwhile');
    back.close();
    lib.close();
  });
});

describe('a library with no file of its own (in memory)', () => {
  it('is backed up from its own connection, a table at a time, and restores whole', async () => {
    const lib = new Library(join(dir, 'memory'), openDatabase(':memory:'));
    addCompleted(lib, 'Kept in memory', [{ text: 'hello', start: 0, end: 300, confidence: 0.9, speaker: null }]);
    expect(await lib.backup.exportAll(join(dir, 'memory-backup'))).toMatchObject({ items: 1 });
    lib.close();
    const back = new Library(join(dir, 'memory-restored'));
    expect(await back.backup.importAll(join(dir, 'memory-backup'))).toMatchObject({ imported: 1 });
    back.close();
  });
});

describe('restoring a backup cut short', () => {
  const size = () => readFileSync(join(backup, 'library.json')).length;
  const points = Array.from({ length: 10 }, (_, k) => k);

  it('refuses library.json cut at 10 points, with its manifest (a hash that differs): nothing is written', async () => {
    const lib = new Library(join(dir, 'cut-a'));
    for (const k of points) {
      const b = copy(`cut-a-${k}`);
      const at = Math.floor(((k + 0.5) / points.length) * size());
      truncateSync(join(b, 'library.json'), at);
      await expect(lib.backup.importAll(b), `cut at ${at}`).rejects.toMatchObject({ code: 'file_unreadable', message: expect.stringMatching(/incomplete/) });
      expect(contents(lib)).toEqual({ items: 0, audio: [], voices: 0 });
    }
    lib.close();
  });

  it('refuses library.json cut at 10 points with no manifest beside it, as an older Verbatim wrote backups: the document does not close', async () => {
    const lib = new Library(join(dir, 'cut-b'));
    for (const k of points) {
      const b = copy(`cut-b-${k}`);
      rmSync(join(b, 'manifest.json'));
      // A backup of the first format (version 1, no manifest): only its closing tells it is whole.
      const file = join(b, 'library.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace('"version":2', '"version":1'));
      const at = Math.floor(((k + 0.5) / points.length) * size());
      truncateSync(file, at);
      await expect(lib.backup.importAll(b), `cut at ${at}`).rejects.toMatchObject({
        code: 'file_unreadable',
        message: expect.stringMatching(/incomplete: library.json ends before its last table closes.*make the backup again/),
      });
      expect(contents(lib)).toEqual({ items: 0, audio: [], voices: 0 });
    }
    lib.close();
  });

  it('refuses a backup whose manifest is missing (cut before its last file), a count that does not match, or an audio file that differs', async () => {
    const lib = new Library(join(dir, 'cut-c'));
    const noManifest = copy('no-manifest');
    rmSync(join(noManifest, 'manifest.json'));
    await expect(lib.backup.importAll(noManifest)).rejects.toMatchObject({ message: expect.stringMatching(/manifest.json.*is missing/) });

    // A row gone and the file's hash written again: the count still tells.
    const fewer = copy('fewer');
    const file = join(fewer, 'library.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as { tables: Record<string, unknown[]> };
    json.tables.recordings!.pop();
    writeFileSync(file, JSON.stringify(json));
    const counts = (JSON.parse(readFileSync(join(fewer, 'manifest.json'), 'utf8')) as { counts: Record<string, number> }).counts;
    resealBackup(fewer);
    const manifest = JSON.parse(readFileSync(join(fewer, 'manifest.json'), 'utf8')) as { counts: Record<string, number> };
    writeFileSync(join(fewer, 'manifest.json'), JSON.stringify({ ...manifest, counts }));
    await expect(lib.backup.importAll(fewer)).rejects.toMatchObject({
      message: expect.stringMatching(new RegExp(`holds ${ITEMS - 1} rows of recordings where the backup wrote ${ITEMS}`)),
    });

    const changed = copy('changed-audio');
    const audio = readdirSync(join(changed, 'audio'))[0]!;
    writeFileSync(join(changed, 'audio', audio), Buffer.alloc(64 * 1024, 4));
    await expect(lib.backup.importAll(changed)).rejects.toMatchObject({ message: expect.stringMatching(/SHA-256 differs/) });
    expect(contents(lib)).toEqual({ items: 0, audio: [], voices: 0 });
    lib.close();
  });
});

describe('a words blob that inflates past what it claims', () => {
  it('refuses 600 KB that would unpack to 600 MB, without unpacking it: the recording stays out and memory stays bounded', async () => {
    const b = copy('bomb');
    const file = join(b, 'library.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as { tables: Record<string, Record<string, unknown>[]> };
    // Streamed, so the test itself never holds 600 MB.
    const gz = createGzip({ level: 9 });
    const parts: Buffer[] = [];
    gz.on('data', (c: Buffer) => parts.push(c));
    const ended = new Promise((r) => gz.on('end', r));
    gz.write('{"t":["');
    const mb = Buffer.alloc(1024 * 1024, 'a');
    for (let i = 0; i < 600; i++) if (!gz.write(mb)) await new Promise((r) => gz.once('drain', r));
    gz.end('"],"s":[],"e":[],"c":[],"p":null}');
    await ended;
    const blob = Buffer.concat(parts);
    expect(blob.length).toBeLessThan(2 * 1024 * 1024);
    const victim = json.tables.words![0]!;
    victim.data = { base64: blob.toString('base64') };
    writeFileSync(file, JSON.stringify(json));
    resealBackup(b);

    const lib = new Library(join(dir, 'bomb-lib'));
    const rssBefore = process.memoryUsage().rss;
    const out = await lib.backup.importAll(b);
    const grew = process.memoryUsage().rss - rssBefore;
    expect(out).toMatchObject({ imported: ITEMS - 1, notes: [expect.stringMatching(/1 recording was not restored: its words are damaged/)] });
    const victimRecording = (json.tables.transcripts!.find((t) => t.id === victim.transcript_id) as { recording_id: string }).recording_id;
    expect(() => lib.recordings.item(victimRecording)).toThrow();
    // Unpacking it would have taken 600 MB at least; a bounded unpack stops after a few kilobytes.
    expect(grew).toBeLessThan(300 * 1024 ** 2);
    expect(existsSync(join(b, 'library.json'))).toBe(true);
    lib.close();
  });
});
