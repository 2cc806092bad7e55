// Live captions from a local model on /v3/ws: `speech_model=<id>` picks an installed streaming transducer
// (a tiny LSTM one written by the test) or an offline model decoding each turn; the tones over quiet speech
// come back as the words "beep beep boop" at their times; a model that is not installed closes the session
// with a reason saying where to get it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningEngine } from '../../src/engine/server';
import { engineSandbox } from '../support/engine';
import { spokenToneSequence, writeTinyModel } from '../fixtures/models/speech';
import { hasSpeechTools } from '../fixtures/speech';

const KEY = 'local-live-key';
const sandbox = engineSandbox('verbatim-local-live-');
let engine: RunningEngine;
let audio: { pcm: Int16Array; starts: number[] };

type Msg = Record<string, unknown> & { type: string };
interface Word {
  text: string;
  start: number;
  end: number;
  word_is_final?: boolean;
}

function open(query: string): { ws: WebSocket; messages: Msg[]; closed: Promise<{ code: number; reason: string }> } {
  const ws = new WebSocket(`${engine.url.replace(/^http/, 'ws')}/v3/ws${query}`, { headers: { Authorization: KEY } });
  const messages: Msg[] = [];
  ws.on('message', (d) => messages.push(JSON.parse(d.toString()) as Msg));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  return { ws, messages, closed };
}

/** Sends PCM in 50 ms frames at real time, then a second of silence. */
async function replay(ws: WebSocket, pcm: Int16Array): Promise<void> {
  const all = new Int16Array(Math.ceil((pcm.length + 16000) / 800) * 800);
  all.set(pcm);
  const frame = 800;
  const start = Date.now();
  for (let i = 0, n = 0; i < all.length; i += frame, n++) {
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(Buffer.from(all.slice(i, i + frame).buffer));
    const due = start + (n + 1) * 50 - Date.now();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
  }
}

beforeAll(async () => {
  if (!hasSpeechTools()) return;
  const models = `${sandbox.dir}/models`;
  writeTinyModel(models, 'streaming-lstm');
  writeTinyModel(models, 'nemo-tdt');
  audio = spokenToneSequence(sandbox.dir);
  engine = await sandbox.start(KEY, { modelsDir: models });
});
afterAll(() => sandbox.cleanup());

describe.skipIf(!hasSpeechTools())('live captions from local models', () => {
  for (const id of ['tiny-streaming-lstm', 'tiny-nemo-tdt']) {
    it(`captions the tones with ${id}, words at their times`, async () => {
      const c = open(`?sample_rate=16000&speech_model=${id}`);
      await new Promise((r) => c.ws.once('open', r));
      await replay(c.ws, audio.pcm);
      c.ws.send(JSON.stringify({ type: 'Terminate' }));
      const closed = await c.closed;
      expect(closed.code, closed.reason).toBe(1000);
      const words = c.messages.filter((m) => m.type === 'Turn' && m.end_of_turn === true && m.turn_is_formatted !== true).flatMap((m) => m.words as Word[]);
      expect(words.map((w) => w.text.toLowerCase().replace(/[^a-z]/g, ''))).toEqual(['beep', 'beep', 'boop']);
      words.forEach((w, i) => expect(Math.abs(w.start - (audio.starts[i] as number))).toBeLessThanOrEqual(150));
      expect(c.messages.some((m) => m.type === 'Error')).toBe(false);
    });
  }

  it('closes a session asking for a model that is not installed, saying where to get it', async () => {
    const c = open('?sample_rate=16000&speech_model=sherpa-onnx-streaming-zipformer-en');
    const closed = await c.closed;
    expect(closed.code).toBe(3006);
    expect(closed.reason).toMatch(/not installed.*Settings → Models/);
  });
});
