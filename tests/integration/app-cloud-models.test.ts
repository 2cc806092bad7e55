/**
 * The app against a fake cloud that records what it receives (REST: tests/unit/main/support/fake-service;
 * live: tests/support/fake-cloud-streaming): a new job asks for the speech models AssemblyAI recommends, or the
 * ones the user chose; a live session asks for the service's default streaming model, or the one chosen; and a
 * SpeakerRevision the service sends before Termination reaches the captions and the saved session.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { CLOUD_DEFAULT_SPEECH_MODELS, STREAMING_DEFAULT_MODEL } from '../../src/shared/api/service-models';
import type { LiveTurn } from '../../src/shared/captions';
import { DEFAULT_SETTINGS } from '../../src/shared/defaults';
import type { EventName } from '../../src/shared/ipc';
import { unpackTranscript } from '../../src/shared/transcript-columns';
import { startFakeService, type FakeService } from '../unit/main/support/fake-service';
import { startFakeStreaming, type FakeStreaming } from '../support/fake-cloud-streaming';
import { waitFinal } from '../support/jobs';
import { call } from '../support/router';

const KEY = 'sk-live-CLOUD-0a1b2c3d4e5f';
const MIME = 'audio/webm;codecs=opus';

let dir: string;
let core: Core | undefined;
let svc: FakeService | undefined;
let live: FakeStreaming | undefined;
const events: { event: EventName; payload: unknown }[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-cloud-models-'));
  events.length = 0;
});

afterEach(async () => {
  await core?.dispose();
  core = undefined;
  await svc?.close();
  svc = undefined;
  await live?.close();
  live = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function cloudCore(script: Parameters<typeof startFakeStreaming>[0] = { turns: [] }): Promise<Core> {
  svc = await startFakeService({ apiKey: KEY, dataDir: join(dir, 'svc'), processMs: 50 });
  live = await startFakeStreaming(script);
  const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k', 'key') });
  const prev = process.env.ASSEMBLYAI_API_KEY;
  process.env.ASSEMBLYAI_API_KEY = KEY;
  const c = createCore(platform, () => true, { jobs: { pollStartMs: 50, pollCapMs: 500, retry: { attempts: 3, baseMs: 20, capMs: 100 } } });
  if (prev === undefined) delete process.env.ASSEMBLYAI_API_KEY;
  else process.env.ASSEMBLYAI_API_KEY = prev;
  c.router.subscribe((event, payload) => events.push({ event, payload }));
  c.settings.set({ region: 'custom', customRestUrl: svc.url, customStreamingUrl: live.url });
  return c;
}

const turnsSeen = () => events.filter((e) => e.event === 'captions.turn').map((e) => e.payload as LiveTurn);

describe('the speech models the app asks the cloud for', () => {
  it('a new job asks for AssemblyAI’s recommendation by default, and for the user’s choice once made', async () => {
    core = await cloudCore();
    expect(core.settings.get().transcriptionDefaults.speechModels).toEqual([...CLOUD_DEFAULT_SPEECH_MODELS]);
    const first = await call(core.router, 'jobs.addUrl', { url: 'https://example.org/a.mp3', name: 'A' });
    expect(await waitFinal(core.jobs, first.id, 30_000)).toMatchObject({ status: 'completed' });
    core.settings.set({ transcriptionDefaults: { ...DEFAULT_SETTINGS.transcriptionDefaults, speechModels: ['universal-2'] } });
    const second = await call(core.router, 'jobs.addUrl', { url: 'https://example.org/b.mp3', name: 'B' });
    expect(await waitFinal(core.jobs, second.id, 30_000)).toMatchObject({ status: 'completed' });
    expect(svc!.transcripts().map((t) => t.params.speech_models)).toEqual([['assemblyai-stt-3-7', 'universal-2'], ['universal-2']]);
    // The details show the model the service says ran, not the list asked for.
    expect((await call(core.router, 'library.get', { id: first.recordingId })).item.model).toBe('universal-2');
  });

  it('a live session asks for the service’s default streaming model, or the one chosen; a retired one is refused in words', async () => {
    core = await cloudCore({ turns: [{ text: 'hello there', speaker: 'A' }] });
    for (const speechModel of [undefined, 'u3-rt-pro']) {
      const run = await call(core.router, 'captions.start', { sources: ['mic'], recordingMime: MIME, ...(speechModel ? { speechModel } : {}) });
      await expect.poll(() => turnsSeen().filter((t) => t.run === run.run).length, { timeout: 30_000 }).toBe(1);
      await call(core.router, 'captions.stop', { run: run.run });
    }
    expect(live!.queries.map((q) => q.get('speech_model'))).toEqual([STREAMING_DEFAULT_MODEL, 'u3-rt-pro']);
    expect(live!.keys).toEqual([KEY, KEY]);
    await expect(call(core.router, 'captions.start', { sources: ['mic'], recordingMime: MIME, speechModel: 'u3-rt-pro-beta-1' })).rejects.toThrow(
      /u3-rt-pro-beta-1 is not a live model the service offers/,
    );
  });
});

describe('SpeakerRevision from the cloud', () => {
  it('relabels the turns it names in the captions (marked revised) and in the saved session', async () => {
    core = await cloudCore({
      turns: [
        { text: 'good morning everyone', speaker: 'A' },
        { text: 'thanks for having me', speaker: 'A' },
        { text: 'let us begin then', speaker: 'A' },
      ],
      // The service told the second voice apart only once it had heard more of it.
      revision: [{ turn_order: 1, speaker_label: 'B' }],
    });
    const run = await call(core.router, 'captions.start', { sources: ['system'], speakerLabels: true, recordingMime: MIME });
    await expect.poll(() => turnsSeen().length, { timeout: 30_000 }).toBe(3);
    expect(turnsSeen().some((t) => t.revised)).toBe(false);
    await call(core.router, 'captions.stop', { run: run.run });
    expect(live!.queries[0]!.get('speaker_labels')).toBe('true');
    const revised = turnsSeen().filter((t) => t.revised);
    expect(revised.map((t) => [t.text, t.speaker])).toEqual([['thanks for having me', 'B']]);
    const saved = unpackTranscript(await call(core.router, 'library.get', { id: run.recordingId }));
    expect(saved.sentences.map((s) => [s.text, s.speaker])).toEqual([
      ['good morning everyone', 'A'],
      ['thanks for having me', 'B'],
      ['let us begin then', 'A'],
    ]);
    expect(saved.words.filter((w) => w.speaker === 'B').map((w) => w.text)).toEqual(['thanks', 'for', 'having', 'me']);
  });
});
