// A streaming Zipformer v1 (model_type "zipformer", the 20M live model's format) on /v3/ws: the model checks
// take its encoder's metadata, and a live session with `speech_model=<its id>` reads the tones over quiet
// speech as "beep beep boop" at their times, through sherpa-onnx's Zipformer v1 caches.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningEngine } from '../../src/engine/server';
import { checkModelFiles } from '../../src/engine/recognizer/sherpa/validate';
import { MODEL_MANIFEST_FILE, type ModelManifest } from '../../src/shared/models/catalog';
import { engineSandbox } from '../support/engine';
import { spokenToneSequence } from '../fixtures/models/speech';
import { writeStreamingZipformer } from '../fixtures/models/streaming-zipformer';
import { hasSpeechTools } from '../fixtures/speech';

const KEY = 'zipformer-v1-key';
const ID = 'tiny-streaming-zipformer';
const sandbox = engineSandbox('verbatim-zipformer-v1-');
let engine: RunningEngine;
let folder: string;
let audio: { pcm: Int16Array; starts: number[] };

type Msg = Record<string, unknown> & { type: string };
interface Word {
  text: string;
  start: number;
  end: number;
}

/** Sends PCM in 50 ms frames at real time, then a second of silence. */
async function replay(ws: WebSocket, pcm: Int16Array): Promise<void> {
  const all = new Int16Array(Math.ceil((pcm.length + 16000) / 800) * 800);
  all.set(pcm);
  const start = Date.now();
  for (let i = 0, n = 0; i < all.length; i += 800, n++) {
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(Buffer.from(all.slice(i, i + 800).buffer));
    const due = start + (n + 1) * 50 - Date.now();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
  }
}

beforeAll(async () => {
  const models = `${sandbox.dir}/models`;
  folder = writeStreamingZipformer(models, ID);
  if (!hasSpeechTools()) return;
  audio = spokenToneSequence(sandbox.dir);
  engine = await sandbox.start(KEY, { modelsDir: models });
});
afterAll(() => sandbox.cleanup());

describe('streaming Zipformer v1', () => {
  it("passes the model checks, with the encoder's Zipformer v1 metadata", async () => {
    const m = JSON.parse(readFileSync(join(folder, MODEL_MANIFEST_FILE), 'utf8')) as ModelManifest;
    const checked = await checkModelFiles(folder, m);
    expect(checked.metadata.encoder).toMatchObject({ model_type: 'zipformer', T: '39', decode_chunk_len: '32', encoder_dims: '2,4' });
    expect(checked.tokens).toEqual(['<blk>', '▁beep', '▁boop']);
  });

  it.skipIf(!hasSpeechTools())('captions the tones live, words at their times', async () => {
    const ws = new WebSocket(`${engine.url.replace(/^http/, 'ws')}/v3/ws?sample_rate=16000&speech_model=${ID}`, { headers: { Authorization: KEY } });
    const messages: Msg[] = [];
    ws.on('message', (d) => messages.push(JSON.parse(d.toString()) as Msg));
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    await new Promise((r) => ws.once('open', r));
    await replay(ws, audio.pcm);
    ws.send(JSON.stringify({ type: 'Terminate' }));
    const end = await closed;
    expect(end.code, end.reason).toBe(1000);
    const words = messages.filter((m) => m.type === 'Turn' && m.end_of_turn === true && m.turn_is_formatted !== true).flatMap((m) => m.words as Word[]);
    expect(words.map((w) => w.text.toLowerCase().replace(/[^a-z]/g, ''))).toEqual(['beep', 'beep', 'boop']);
    words.forEach((w, i) => expect(Math.abs(w.start - (audio.starts[i] as number))).toBeLessThanOrEqual(150));
    expect(messages.some((m) => m.type === 'Error')).toBe(false);
  });
});
