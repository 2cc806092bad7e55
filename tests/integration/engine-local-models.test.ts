// Local speech models in the engine: tiny models written by the test (tests/fixtures/models/speech.ts) transcribe
// a tone sequence as "beep beep boop" with its word times; speech_models picks between installed models; a
// broken model (garbage, truncated, missing metadata, tokens.txt without <blk>, a joiner that crashes
// sherpa-onnx) fails its job with a clear error and the engine keeps answering; a model deleted while the
// engine runs is released; loaded models are freed after the idle time.
import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import { engineSandbox } from '../support/engine';
import { wavBytes } from '../fixtures/models/speakers';
import { OnnxGraph } from '../fixtures/models/onnx';
import { spokenToneSequence, writeTinyModel } from '../fixtures/models/speech';
import { hasSpeechTools } from '../fixtures/speech';

const KEY = 'local-models-key';
const sandbox = engineSandbox('verbatim-local-models-');
const models = join(sandbox.dir, 'models');
let engine: RunningEngine;
let uploadUrl: string;
let starts: number[] = [];

interface Wire {
  id: string;
  status: string;
  error?: string;
  text: string | null;
  words: { text: string; start: number; end: number; confidence: number }[] | null;
  speech_model_used?: string;
}

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${engine.url}${path}`, { ...init, headers: { authorization: KEY, 'content-type': 'application/json', ...init.headers } });
}

async function transcribe(body: Record<string, unknown>): Promise<Wire> {
  const created = await api('/v2/transcript', { method: 'POST', body: JSON.stringify({ audio_url: uploadUrl, ...body }) });
  expect(created.status, await created.clone().text()).toBe(200);
  const { id } = (await created.json()) as Wire;
  let t: Wire | undefined;
  await expect
    .poll(
      async () => {
        t = (await (await api(`/v2/transcript/${id}`)).json()) as Wire;
        return t.status;
      },
      { timeout: 60_000, interval: 100 },
    )
    .toMatch(/completed|error/);
  return t as Wire;
}

function expectBeeps(t: Wire): void {
  expect(t.status, t.error).toBe('completed');
  const words = t.words ?? [];
  expect(words.map((w) => w.text.toLowerCase().replace(/[^a-z]/g, ''))).toEqual(['beep', 'beep', 'boop']);
  words.forEach((w, i) => {
    expect(Math.abs(w.start - (starts[i] as number))).toBeLessThanOrEqual(100);
    expect(w.end).toBeGreaterThan(w.start);
  });
}

beforeAll(async () => {
  if (!hasSpeechTools()) return;
  writeTinyModel(models, 'nemo-tdt');
  writeTinyModel(models, 'nemo-ctc');
  writeTinyModel(models, 'zipformer-transducer');
  writeTinyModel(models, 'moonshine');
  writeTinyModel(models, 'whisper');
  writeTinyModel(models, 'whisper-multilingual');
  engine = await sandbox.start(KEY, { modelsDir: models, idleMs: 4000 });
  // Tones over quiet speech: Silero VAD passes the speech (it ignores bare tones), the tiny models read the tones.
  const audio = spokenToneSequence(sandbox.dir);
  starts = audio.starts;
  const up = await fetch(`${engine.url}/v2/upload`, { method: 'POST', headers: { authorization: KEY }, body: new Uint8Array(wavBytes(audio.pcm)) });
  uploadUrl = ((await up.json()) as { upload_url: string }).upload_url;
});
afterAll(() => sandbox.cleanup());

describe.skipIf(!hasSpeechTools())('local speech models', () => {
  it('transcribes a file with the default model kind (Parakeet TDT), with word times, and names it', async () => {
    const t = await transcribe({ speech_models: ['tiny-nemo-tdt'] });
    expectBeeps(t);
    expect(t.speech_model_used).toBe('tiny-nemo-tdt');
  });

  it('picks between installed models by speech_models, and runs PocketSphinx for the built-in names', async () => {
    for (const id of ['tiny-nemo-ctc', 'tiny-zipformer-transducer']) {
      const t = await transcribe({ speech_models: [id] });
      expectBeeps(t);
      expect(t.speech_model_used).toBe(id);
    }
    const ps = await transcribe({ speech_models: ['pocketsphinx'] });
    expect(ps.status).toBe('completed');
    expect(ps.speech_model_used).toBe('pocketsphinx');
  });

  for (const id of ['tiny-moonshine', 'tiny-whisper']) {
    it(`spreads the words of a model without word times (${id}) over their speech segment, in order`, async () => {
      const t = await transcribe({ speech_models: [id] });
      expect(t.status, t.error).toBe('completed');
      expect(t.speech_model_used).toBe(id);
      const words = t.words ?? [];
      expect(words.map((w) => w.text.toLowerCase().replace(/[^a-z]/g, ''))).toEqual(['beep', 'beep', 'boop']);
      for (let i = 0; i < words.length; i++) {
        const w = words[i] as { start: number; end: number };
        expect(w.end).toBeGreaterThan(w.start);
        if (i > 0) expect(w.start).toBeGreaterThanOrEqual((words[i - 1] as { end: number }).end);
      }
    });
  }

  it('takes language_code and language_detection with a multilingual model installed, and refuses them without', async () => {
    for (const ask of [{ language_code: 'de' }, { language_detection: true }]) {
      const t = await transcribe({ speech_models: ['tiny-whisper-multilingual'], ...ask });
      expect(t.status, t.error).toBe('completed');
      expect((t.words ?? []).map((w) => w.text.toLowerCase().replace(/[^a-z]/g, ''))).toEqual(['beep', 'beep', 'boop']);
    }
    const r = await api('/v2/transcript', {
      method: 'POST',
      body: JSON.stringify({ audio_url: uploadUrl, speech_models: ['tiny-whisper'], language_code: 'de' }),
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toMatch(/language_code "de" is not supported/);
  });

  it('keyterms reach a transducer as hotwords without changing a clean decode', async () => {
    expectBeeps(await transcribe({ speech_models: ['tiny-zipformer-transducer'], keyterms_prompt: ['boop'] }));
  });

  it('answers 400 naming a model that is not installed, and saying where to get it', async () => {
    const r = await api('/v2/transcript', {
      method: 'POST',
      body: JSON.stringify({ audio_url: uploadUrl, speech_models: ['nemo-parakeet-tdt-0.6b-v2-int8'] }),
    });
    expect(r.status).toBe(400);
    const { error } = (await r.json()) as { error: string };
    expect(error).toMatch(/nemo-parakeet-tdt-0\.6b-v2-int8.*not installed.*Settings → Models/);
    const lang = await api('/v2/transcript', {
      method: 'POST',
      body: JSON.stringify({ audio_url: uploadUrl, speech_models: ['tiny-nemo-tdt'], language_code: 'de' }),
    });
    expect(lang.status).toBe(400);
  });

  const broken: [string, (dir: string) => void, RegExp][] = [
    [
      'garbage',
      (d) => writeFileSync(join(d, 'encoder.onnx'), Buffer.from('this is not a model at all, just text '.repeat(50))),
      /encoder.*damaged or not an ONNX model/,
    ],
    [
      'truncated',
      (d) => truncateSync(join(d, 'encoder.onnx'), Math.floor(readFileSync(join(d, 'encoder.onnx')).length / 2)),
      /encoder.*damaged or not an ONNX model/,
    ],
    [
      'missing-metadata',
      (d) => {
        const g = new OnnxGraph();
        g.input('x', 'float', ['N', 80, 'T']);
        g.input('l', 'int64', ['N']);
        g.output(g.node('Identity', ['x']), 'float', ['N', 80, 'T'], 'y');
        g.output(g.node('Identity', ['l']), 'int64', ['N'], 'yl');
        writeFileSync(join(d, 'encoder.onnx'), g.toBytes({ vocab_size: 2, subsampling_factor: 8 }));
      },
      /lacks the metadata "pred_rnn_layers"/,
    ],
    ['no-blank', (d) => writeFileSync(join(d, 'tokens.txt'), '▁beep 0\n▁boop 1\n<unk> 2\n'), /no blank token \(<blk>\)/],
    [
      // Valid files with valid metadata, but a joiner too narrow for the vocabulary: sherpa-onnx itself fails (exit 255 or a crash), in the worker.
      'narrow-joiner',
      (d) => {
        const j = new OnnxGraph();
        j.input('e', 'float', [1, 2, 1]);
        j.input('d', 'float', ['N', 1, 1]);
        j.output(j.node('Reshape', [j.node('Identity', ['e']), j.ints([-1, 1, 1, 2])]), 'float', ['N', 1, 1, 2], 'logits');
        writeFileSync(join(d, 'joiner.onnx'), j.toBytes());
      },
      /tiny-bad-narrow-joiner failed to (load|decode): speech recognition: the worker (exited with status|was killed by)/,
    ],
  ];
  for (const [name, spoil, why] of broken) {
    it(`fails a job on a ${name} model with a clear error, and keeps answering`, async () => {
      const id = `tiny-bad-${name}`;
      spoil(writeTinyModel(models, 'nemo-tdt', id));
      const t = await transcribe({ speech_models: [id] });
      expect(t.status).toBe('error');
      expect(t.error).toMatch(why);
      expect(t.error).toMatch(/Settings → Models/);
      expect((await api('/health')).status).toBe(200);
      expectBeeps(await transcribe({ speech_models: ['tiny-nemo-ctc'] }));
    });
  }

  it('frees a loaded model after the idle time (the worker exits), and loads it again on demand', async () => {
    expectBeeps(await transcribe({ speech_models: ['tiny-nemo-tdt'] }));
    const reg = engineRegistry();
    await expect.poll(() => reg.child.running, { timeout: 30_000 }).toBe(false);
    expect(reg.loadedKeys()).toEqual([]);
    expectBeeps(await transcribe({ speech_models: ['tiny-nemo-tdt'] }));
  });

  it('notices a model replaced while the engine runs: the old one is released, the new one runs', async () => {
    const dir = writeTinyModel(models, 'nemo-tdt', 'tiny-swap');
    expectBeeps(await transcribe({ speech_models: ['tiny-swap'] }));
    const reg = engineRegistry();
    const before = reg.loadedKeys().filter((k) => k.startsWith('tiny-swap|'));
    rmSync(dir, { recursive: true, force: true });
    writeTinyModel(models, 'zipformer-transducer', 'tiny-swap');
    expectBeeps(await transcribe({ speech_models: ['tiny-swap'] }));
    // Whatever was loaded from the old files is gone (keys carry the files' signature).
    expect(reg.loadedKeys().filter((k) => before.includes(k))).toEqual([]);
  });

  it('notices a model deleted while the engine runs: its jobs fail clearly and it is released', async () => {
    const dir = writeTinyModel(models, 'nemo-ctc', 'tiny-doomed');
    expectBeeps(await transcribe({ speech_models: ['tiny-doomed'] }));
    rmSync(dir, { recursive: true, force: true });
    const r = await api('/v2/transcript', { method: 'POST', body: JSON.stringify({ audio_url: uploadUrl, speech_models: ['tiny-doomed'] }) });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toMatch(/tiny-doomed.*not installed/);
    // Released when the request asked for it, not at the idle time.
    expect(
      engineRegistry()
        .loadedKeys()
        .some((k) => k.startsWith('tiny-doomed|')),
    ).toBe(false);
  });
});

/** The running engine's model registry. */
function engineRegistry() {
  return engine.ctx.recognizers.local;
}
