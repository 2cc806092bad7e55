/**
 * Audio retention on a real library: Settings' rule (N days, or until transcribed) removes recorded
 * audio in batches and keeps every transcript; one Undo brings a run back until the next start,
 * which deletes the files for good, finishing a run a crash cut short.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { StorageService } from '../../src/main/services/storage/service';
import type { RetentionRun } from '../../src/shared/ipc/storage';
import { unpackTranscript } from '../../src/shared/transcript-columns';
import { call } from '../support/router';

let root: string;
const cores: Core[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'verbatim-retention-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(async () => {
  for (const c of cores.splice(0)) await c.dispose();
});

function makeCore(dataDir: string): Core {
  const platform = createHostPlatform({ dataDir, version: 't', keyFile: join(dataDir, '..', 'k') });
  const prev = process.env.ASSEMBLYAI_API_KEY;
  delete process.env.ASSEMBLYAI_API_KEY;
  const c = createCore(platform, () => true, { log: () => undefined });
  if (prev !== undefined) process.env.ASSEMBLYAI_API_KEY = prev;
  cores.push(c);
  return c;
}

const DAY = 86_400_000;

/** A recording made `daysAgo` days ago with 4 KB of stored audio and, unless `pending`, a completed transcript. */
function addRecording(c: Core, title: string, daysAgo: number, pending = false): string {
  const now = new Date(Date.now() - daysAgo * DAY).toISOString();
  const { recordingId, transcriptId } = c.library.recordings.add(
    { title, source: `${title}.wav`, sourceKind: 'file', sizeBytes: 4096, region: 'local', baseUrl: null, options: {} },
    { now },
  );
  const src = join(root, `${title}-${recordingId}.wav`);
  writeFileSync(src, Buffer.alloc(4096, 1));
  c.library.audio.attach(recordingId, src);
  if (!pending)
    c.library.transcripts.complete(transcriptId, {
      remoteId: null,
      text: `${title} words`,
      words: [
        { text: title, start: 0, end: 300, confidence: 0.9, speaker: null },
        { text: 'words', start: 400, end: 700, confidence: 0.9, speaker: null },
      ],
      sentences: null,
      paragraphs: null,
      confidence: 0.9,
      language: 'en_us',
      model: 'test',
      durationMs: 1000,
    });
  return recordingId;
}

const hasAudio = async (c: Core, id: string) => (await call(c.router, 'library.list', {})).items.find((i) => i.id === id)?.hasAudio;
const text = async (c: Core, id: string) => unpackTranscript(await call(c.router, 'library.get', { id })).text;

describe('audio retention', () => {
  it('keeps audio for ever unless told otherwise', async () => {
    const c = makeCore(join(mkdtempSync(join(root, 'case-')), 'data'));
    const old = addRecording(c, 'Ancient', 400);
    expect((await call(c.router, 'settings.get', undefined)).audioRetention).toEqual({ mode: 'forever', days: 30 });
    expect(await call(c.router, 'storage.applyRetention', undefined)).toEqual({ batchId: null, recordings: 0, bytes: 0 });
    expect(await hasAudio(c, old)).toBe(true);
  });

  it('removes audio older than N days, never a transcript or a recording still being transcribed, and Undo brings it back', async () => {
    const c = makeCore(join(mkdtempSync(join(root, 'case-')), 'data'));
    const old = addRecording(c, 'Old', 40);
    const recent = addRecording(c, 'Recent', 2);
    const pending = addRecording(c, 'Pending', 60, true);
    const before = await call(c.router, 'storage.usage', undefined);
    expect(before.audioFiles).toBe(3);
    expect(before.audioBytes).toBe(3 * 4096);

    await call(c.router, 'settings.set', { audioRetention: { mode: 'days', days: 30 } });
    const run = await call(c.router, 'storage.applyRetention', undefined);
    expect(run).toMatchObject({ recordings: 1, bytes: 4096 });
    expect(run.batchId).toEqual(expect.any(String));
    expect(await hasAudio(c, old)).toBe(false);
    expect(await hasAudio(c, recent)).toBe(true);
    expect(await hasAudio(c, pending)).toBe(true);
    expect(await text(c, old)).toBe('Old words');
    const after = await call(c.router, 'storage.usage', undefined);
    expect(after).toMatchObject({ audioFiles: 2, trashBytes: 4096, lastRun: run });

    expect(await call(c.router, 'storage.undoRetention', { batchId: run.batchId! })).toEqual({ recordings: 1 });
    expect(await hasAudio(c, old)).toBe(true);
    expect((await call(c.router, 'storage.usage', undefined)).audioFiles).toBe(3);
  });

  it('until transcribed: removes every finished recording’s audio in batches; the next start deletes it for good', async () => {
    const data = join(mkdtempSync(join(root, 'case-')), 'data');
    const c = makeCore(data);
    const ids = Array.from({ length: 60 }, (_, i) => addRecording(c, `Talk ${i}`, i % 5));
    const told: RetentionRun[] = [];
    c.router.subscribe((event, payload) => {
      if (event === 'storage.retention') told.push(payload as RetentionRun);
    });
    await call(c.router, 'settings.set', { audioRetention: { mode: 'transcribed', days: 30 } });
    const run = await call(c.router, 'storage.applyRetention', undefined);
    expect(run).toMatchObject({ recordings: 60, bytes: 60 * 4096 });
    // Asked for, it answers itself: no event.
    expect(told).toEqual([]);
    expect(readdirSync(join(data, 'audio')).filter((n) => !n.startsWith('.'))).toEqual([]);
    await c.dispose();
    cores.splice(0);

    // The next start: the trash is emptied, Undo can no longer help, and every transcript is still there.
    const again = makeCore(data);
    expect(existsSync(join(data, 'audio-trash', run.batchId!))).toBe(false);
    await expect(call(again.router, 'storage.undoRetention', { batchId: run.batchId! })).rejects.toMatchObject({ code: 'not_found' });
    expect(await text(again, ids[59]!)).toBe('Talk 59 words');
    expect(await hasAudio(again, ids[0]!)).toBe(false);
  });

  it('tells the renderer of a run the hourly clock made, so it can offer Undo', async () => {
    const c = makeCore(join(mkdtempSync(join(root, 'case-')), 'data'));
    const id = addRecording(c, 'Clocked', 1);
    await call(c.router, 'settings.set', { audioRetention: { mode: 'transcribed', days: 30 } });
    const told: RetentionRun[] = [];
    const clock = new StorageService({ library: c.library, settings: c.settings, removed: (r) => told.push(r) });
    const run = await clock.apply(true);
    expect(run.recordings).toBe(1);
    expect(told).toEqual([run]);
    expect(await hasAudio(c, id)).toBe(false);
  });

  it('finishes at the next start a run that a crash cut between moving a file and clearing its column', async () => {
    const data = join(mkdtempSync(join(root, 'case-')), 'data');
    const c = makeCore(data);
    const id = addRecording(c, 'Cut', 90);
    const [due] = c.library.retention.due({ mode: 'days', days: 30 }, 10);
    const batch = c.library.retention.open([{ ...due!, bytes: 4096 }]);
    // The file moved; the crash came before its column was cleared.
    mkdirSync(join(data, 'audio-trash', batch.id), { recursive: true });
    renameSync(join(data, 'audio', due!.original!), join(data, 'audio-trash', batch.id, due!.original!));
    await c.dispose();
    cores.splice(0);

    const again = makeCore(data);
    expect(await hasAudio(again, id)).toBe(false);
    expect(existsSync(join(data, 'audio-trash', batch.id))).toBe(false);
    expect(await text(again, id)).toBe('Cut words');
  });

  it('refuses an undo of a batch that is not there, in words', async () => {
    const c = makeCore(join(mkdtempSync(join(root, 'case-')), 'data'));
    await expect(call(c.router, 'storage.undoRetention', { batchId: '1700000000000-abc' })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/deleted for good/),
    });
    await expect(call(c.router, 'storage.undoRetention', { batchId: '../../etc' })).rejects.toMatchObject({ code: 'bad_request' });
  });
});
