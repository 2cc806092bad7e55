// Live captions with a local model the engine reports slower than real time (issue 25): the engine, started with
// liveSlowRtf 0 (every model counts as slow, so no timing race decides it), sends its one Warning on /v3/ws; main's
// streaming client reads it and the captions service carries it on the source's status, kept through later states.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame } from '../../src/shared/audio-frame';
import type { LiveStatus, LiveTurn } from '../../src/shared/captions';
import { CaptionsService } from '../../src/main/services/captions/service';
import { StreamingClient } from '../../src/main/services/client/streaming';
import { Library } from '../../src/main/services/library/library';
import type { RunningEngine } from '../../src/engine/server';
import { engineSandbox } from '../support/engine';
import { spokenToneSequence, writeTinyModel } from '../fixtures/models/speech';
import { hasSpeechTools } from '../fixtures/speech';

const KEY = 'slow-live-key';
const MODEL = 'tiny-streaming-lstm';
const sandbox = engineSandbox('verbatim-captions-slow-');
let engine: RunningEngine;
let library: Library;
let speech: Int16Array;

beforeAll(async () => {
  if (!hasSpeechTools()) return;
  // Speech (the engine's speech detector passes only speech to the model), twice over: well past the 3 s the pace is judged on.
  const once = spokenToneSequence(sandbox.dir).pcm;
  speech = new Int16Array(once.length * 2);
  speech.set(once);
  speech.set(once, once.length);
  const models = `${sandbox.dir}/models`;
  writeTinyModel(models, 'streaming-lstm');
  engine = await sandbox.start(KEY, { modelsDir: models, liveSlowRtf: 0 });
  library = new Library(`${sandbox.dir}/app`);
});
afterAll(async () => {
  library?.close();
  await sandbox.cleanup();
});

describe.skipIf(!hasSpeechTools())('a live model slower than real time', () => {
  it('reaches the captions status as a warning naming the model and Settings → Models', async () => {
    const statuses: LiveStatus[] = [];
    const turns: LiveTurn[] = [];
    const svc = new CaptionsService({
      library,
      target: async () => ({ region: 'local', baseUrl: null }),
      streaming: async (o, h) => new StreamingClient({ ...o, speechModel: MODEL, baseUrl: engine.url.replace(/^http/, 'ws'), key: KEY }, h),
      improve: async () => ({ id: 'unused' }),
      events: { turn: (t) => turns.push(t), status: (s) => statuses.push(s), run: () => undefined },
    });
    const run = await svc.start({ sources: ['mic'], recordingMime: 'audio/webm;codecs=opus' });
    expect(statuses.at(-1)).toMatchObject({ state: 'live', warning: null });
    // In 50 ms frames; the service's pacer sends them at real time, and the warning is awaited to a deadline.
    for (let i = 0; i < speech.length; i += 800) {
      const pcm = speech.slice(i, i + 800);
      svc.frame(new Uint8Array(encodeFrame({ kind: 'pcm', source: 'mic', run: run.run, capturedAt: Date.now(), payload: new Uint8Array(pcm.buffer) })));
    }
    await expect.poll(() => statuses.find((s) => s.warning)?.warning, { timeout: 60_000 }).toBeTruthy();
    const warned = statuses.find((s) => s.warning)!;
    expect(warned).toMatchObject({ source: 'mic', state: 'live', warning: { code: 'slower_than_real_time' } });
    expect(warned.warning!.message).toMatch(new RegExp(`live model ${MODEL} decodes slower than real time.*Settings → Models`));
    // Said once per session.
    expect(new Set(statuses.filter((s) => s.warning).map((s) => s.warning!.message)).size).toBe(1);
    // Later states keep it (a notice does not hide it) while the run lasts.
    expect(svc.current().status[0]?.warning?.code).toBe('slower_than_real_time');
    const stopped = await svc.stop(run.run);
    expect(stopped.run).toBe(run.run);
    expect(statuses.at(-1)).toMatchObject({ state: 'stopped', warning: { code: 'slower_than_real_time' } });
  });
});
