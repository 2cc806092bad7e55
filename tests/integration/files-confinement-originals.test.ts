/**
 * Host mode: a recording kept only as the user's original (no copy of the audio in the library) is read
 * through the owner of the user's files, by the waveform and by the voices: an original under --folder
 * swapped for a link out is refused, and a swap after the check reads the file the check opened (ffmpeg
 * is handed that descriptor), never the outside file. The real core, library and ffmpeg.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform, ForkEngineLauncher } from '../../src/main/platform/host';
import { Library } from '../../src/main/services/library/library';
import { wavBytes } from '../fixtures/models/speakers';
import { call } from '../support/router';

const fakeEngine = resolve('tests/unit/main/support/fake-engine-cli.ts');
let dir: string;
let inside: string;
let outside: string;
let core: Core | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-confine-peaks-'));
  inside = join(dir, 'folder');
  outside = join(dir, 'private');
  mkdirSync(inside);
  mkdirSync(outside);
});
afterEach(async () => {
  await core?.dispose();
  core = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** Two seconds of 16 kHz audio: silence, or a full-scale square wave. */
const silence = () => wavBytes(new Int16Array(32_000));
const loud = () => wavBytes(Int16Array.from({ length: 32_000 }, (_, i) => (i % 40 < 20 ? 30_000 : -30_000)));

/** A recording whose only audio is the user's file at `file` (as a job on a picked file leaves it with no copy kept). */
function recordingOf(file: string): string {
  const lib = new Library(join(dir, 'data'));
  const options = {};
  const job = lib.jobs.create({
    kind: 'file',
    source: file,
    name: 'talk.wav',
    size: 64_044,
    region: 'local',
    baseUrl: 'local',
    options,
    recording: {
      title: 'talk',
      source: 'talk.wav',
      sourceKind: 'file',
      sizeBytes: 64_044,
      durationMs: 2000,
      originalPath: file,
      region: 'local',
      baseUrl: null,
      options,
    },
  });
  lib.jobs.delete(job.id);
  lib.close();
  return job.recordingId;
}

function hostCore(): Core {
  const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k', 'key') });
  platform.engine = new ForkEngineLauncher(fakeEngine);
  return createCore(platform, () => true, { log: () => undefined, onlyPickedPaths: true, hostFolders: [inside] });
}

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return { code: (e as { code?: string }).code, message: (e as Error).message };
  }
  return null;
};

describe('host mode: the waveform of a recording kept only as its original', () => {
  it('is refused when the original under --folder was swapped for a link out, and nothing is stored', async () => {
    const file = join(inside, 'talk.wav');
    writeFileSync(file, silence());
    const id = recordingOf(file);
    writeFileSync(join(outside, 'secret.wav'), loud());
    rmSync(file);
    symlinkSync(join(outside, 'secret.wav'), file);
    core = hostCore();
    const got = await refusal(call(core.router, 'subtitles.peaks', { id }));
    expect(got?.code).toBe('forbidden');
    expect(got?.message).toMatch(/link to a file outside the folders .*--folder/);
    expect(core.library.subtitles.storedPeaks(id)).toBeNull();
  });

  it('a swap after the check reads the file the check opened, not the outside one', async () => {
    const file = join(inside, 'talk.wav');
    writeFileSync(file, silence());
    const id = recordingOf(file);
    writeFileSync(join(outside, 'secret.wav'), loud());
    core = hostCore();
    const store = core.library.subtitles;
    const check = store.openOriginal;
    let swapped = false;
    store.openOriginal = async (path) => {
      const opened = await check(path);
      // Checked and opened; now the path leads outside, before ffmpeg reads a byte.
      rmSync(file);
      symlinkSync(join(outside, 'secret.wav'), file);
      swapped = true;
      return opened;
    };
    const peaks = await call(core.router, 'subtitles.peaks', { id });
    expect(swapped).toBe(true);
    const bytes = Buffer.from(peaks.data, 'base64');
    expect(bytes.length).toBeGreaterThan(50);
    // The user's own file is silent; the outside one is at full scale everywhere.
    expect(Math.max(...bytes)).toBe(0);
    expect(peaks.durationMs).toBeGreaterThan(1500);
  });
});

describe('host mode: the voices of a recording kept only as its original', () => {
  it('are not read when the original under --folder was swapped for a link out: refused before the engine is asked', async () => {
    const file = join(inside, 'talk.wav');
    writeFileSync(file, silence());
    const lib = new Library(join(dir, 'data'));
    const { recordingId, transcriptId } = lib.recordings.add({
      title: 'talk',
      source: 'talk.wav',
      sourceKind: 'file',
      sizeBytes: 64_044,
      durationMs: 2000,
      originalPath: file,
      region: 'local',
      baseUrl: null,
      options: {},
    });
    const words = [...'AABB'].map((speaker, i) => ({ text: `w${i}.`, start: i * 500, end: i * 500 + 400, confidence: 0.9, speaker }));
    lib.transcripts.complete(transcriptId, {
      remoteId: null,
      text: words.map((w) => w.text).join(' '),
      words,
      sentences: null,
      paragraphs: null,
      confidence: 0.9,
      language: 'en_us',
      model: 'test',
      durationMs: 2000,
    });
    lib.close();
    writeFileSync(join(outside, 'secret.wav'), loud());
    rmSync(file);
    symlinkSync(join(outside, 'secret.wav'), file);
    core = hostCore();
    let asked = false;
    const ensure = core.engine.ensure.bind(core.engine);
    core.engine.ensure = () => ((asked = true), ensure());
    const got = await refusal(call(core.router, 'people.recluster', { id: recordingId, speakers: 2 }));
    expect(got?.code).toBe('forbidden');
    expect(got?.message).toMatch(/link to a file outside the folders .*--folder/);
    expect(asked).toBe(false);
  });
});
