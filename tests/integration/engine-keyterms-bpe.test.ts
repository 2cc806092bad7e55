// Keyterms reach BPE transducers as upstream passes them: raw words, modelingUnit 'bpe', a bpe.vocab from
// tokens.txt (sherpa-onnx nodejs-addon-examples/test_asr_non_streaming_nemo_parakeet_tdt_v2_hotwords.js).
// The tiny models (tests/fixtures/models/speech.ts, "near tie") read boop's tone as "▁boop" half a nat ahead
// of "▁bop": without keyterms they say "beep beep boop"; with keyterms_prompt ["bop"] the hotword's boost
// tips it to "bop" — for a file job (POST /v2/transcript) and for a live stream (/v3/ws). Before this, the
// engine passed the pre-split piece "▁bop" with the default modelingUnit cjkchar, which sherpa-onnx split
// into "▁" "b" "o" "p" and dropped, and a live stream got no hotwords at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningEngine } from '../../src/engine/server';
import { engineSandbox } from '../support/engine';
import { wavBytes } from '../fixtures/models/speakers';
import { NEAR_TIE, spokenToneSequence, writeTinyModel } from '../fixtures/models/speech';
import { hasSpeechTools } from '../fixtures/speech';

const KEY = 'keyterms-bpe-key';
const sandbox = engineSandbox('verbatim-keyterms-bpe-');
let engine: RunningEngine;
let audio: { pcm: Int16Array; starts: number[] };
let uploadUrl: string;

interface Wire {
  id: string;
  status: string;
  error?: string;
  words: { text: string }[] | null;
}
type Msg = Record<string, unknown> & { type: string };

const plain = (ws: { text: string }[]): string[] => ws.map((w) => w.text.toLowerCase().replace(/[^a-z]/g, ''));

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${engine.url}${path}`, { ...init, headers: { authorization: KEY, 'content-type': 'application/json', ...init.headers } });
}

async function transcribe(body: Record<string, unknown>): Promise<Wire> {
  const created = await api('/v2/transcript', {
    method: 'POST',
    body: JSON.stringify({ audio_url: uploadUrl, speech_models: ['tiny-zipformer-bpe-near-tie'], ...body }),
  });
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
  expect(t?.status, t?.error).toBe('completed');
  return t as Wire;
}

/** A /v3/ws session on the streaming near-tie model: the audio at real time, then Terminate; the final turns' words. */
async function live(query: string): Promise<string[]> {
  const ws = new WebSocket(`${engine.url.replace(/^http/, 'ws')}/v3/ws?sample_rate=16000&speech_model=tiny-streaming-bpe-near-tie${query}`, {
    headers: { Authorization: KEY },
  });
  const messages: Msg[] = [];
  ws.on('message', (d) => messages.push(JSON.parse(d.toString()) as Msg));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise((r) => ws.once('open', r));
  const all = new Int16Array(Math.ceil((audio.pcm.length + 16000) / 800) * 800);
  all.set(audio.pcm);
  const start = Date.now();
  for (let i = 0, n = 0; i < all.length; i += 800, n++) {
    if (ws.readyState !== WebSocket.OPEN) break;
    ws.send(Buffer.from(all.slice(i, i + 800).buffer));
    // Real time: the engine's turn detection reads the audio as a microphone sends it.
    const due = start + (n + 1) * 50 - Date.now();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
  }
  ws.send(JSON.stringify({ type: 'Terminate' }));
  const c = await closed;
  expect(c.code, c.reason).toBe(1000);
  expect(messages.filter((m) => m.type === 'Error')).toEqual([]);
  return plain(
    messages.filter((m) => m.type === 'Turn' && m.end_of_turn === true && m.turn_is_formatted !== true).flatMap((m) => m.words as { text: string }[]),
  );
}

beforeAll(async () => {
  if (!hasSpeechTools()) return;
  const models = `${sandbox.dir}/models`;
  writeTinyModel(models, 'zipformer-bpe-near-tie');
  writeTinyModel(models, 'streaming-bpe-near-tie');
  audio = spokenToneSequence(sandbox.dir);
  engine = await sandbox.start(KEY, { modelsDir: models });
  const up = await fetch(`${engine.url}/v2/upload`, { method: 'POST', headers: { authorization: KEY }, body: new Uint8Array(wavBytes(audio.pcm)) });
  uploadUrl = ((await up.json()) as { upload_url: string }).upload_url;
});
afterAll(() => sandbox.cleanup());

describe.skipIf(!hasSpeechTools())('keyterms with a BPE transducer', () => {
  it('a file job: the hotword tips the near tie', async () => {
    expect(plain((await transcribe({})).words ?? [])).toEqual(['beep', 'beep', 'boop']);
    expect(plain((await transcribe({ keyterms_prompt: [NEAR_TIE.word] })).words ?? [])).toEqual(['beep', 'beep', NEAR_TIE.word]);
    // Upper case typed, lower-case vocabulary: the word is passed in the vocabulary's case.
    expect(plain((await transcribe({ keyterms_prompt: ['BOP'] })).words ?? [])).toEqual(['beep', 'beep', NEAR_TIE.word]);
    // A term the model cannot spell is left out; it does not cost the others.
    expect(plain((await transcribe({ keyterms_prompt: ['Zyxw', NEAR_TIE.word] })).words ?? [])).toEqual(['beep', 'beep', NEAR_TIE.word]);
  });

  it('a live stream: created with the hotwords, every turn', async () => {
    expect(await live('')).toEqual(['beep', 'beep', 'boop']);
    expect(await live(`&keyterms_prompt=${encodeURIComponent(JSON.stringify([NEAR_TIE.word]))}`)).toEqual(['beep', 'beep', NEAR_TIE.word]);
  });
});
