// The engine over real HTTP with a tampered models folder: a FIFO and a link to /dev/zero as manifests, a chat model
// whose model.gguf is a FIFO or a link out of its folder. Each is that model's fault, named in a 400 or 422; the
// engine neither hangs nor reads without end, and the good models keep working. And Whisper language codes: a code
// Whisper does not know (jv) is a 400 naming it, and a three-letter one it does know (yue) is taken as it is.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { RunningEngine } from '../../src/engine/server';
import { engineSandbox } from '../support/engine';
import { tinyGguf } from '../fixtures/models/gguf';
import { wavBytes } from '../fixtures/models/speakers';

const KEY = 'models-folder-key';
const sandbox = engineSandbox('verbatim-models-folder-');
const models = join(sandbox.dir, 'models');
let engine: RunningEngine;
let uploadUrl: string;

function install(id: string, fields: Record<string, unknown>, files: Record<string, (path: string) => void> = {}): void {
  const dir = join(models, id);
  mkdirSync(dir, { recursive: true });
  for (const [name, make] of Object.entries(files)) make(join(dir, name));
  const manifest = { id, name: id, languages: ['en'], wordTimings: 'none', sha256: null, bytes: 1, installedAt: '2026-11-27T00:00:00.000Z', ...fields };
  writeFileSync(join(dir, 'verbatim-model.json'), JSON.stringify(manifest));
}

function hostileManifest(id: string, make: (path: string) => void): void {
  mkdirSync(join(models, id), { recursive: true });
  make(join(models, id, 'verbatim-model.json'));
}

async function api(path: string, body?: unknown): Promise<{ status: number; error: string; json: Record<string, unknown> }> {
  const r = await fetch(`${engine.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: KEY, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await r.json()) as Record<string, unknown>;
  return { status: r.status, error: typeof json.error === 'string' ? json.error : '', json };
}

beforeAll(async () => {
  // Whisper's files are not read before a job runs: the manifest is what the request is checked against.
  const whisperFiles = { encoder: 'e.onnx', decoder: 'd.onnx', tokens: 't.txt' };
  install('whisper-many', { task: 'files', family: 'whisper', languages: ['en', 'de', 'jv', 'yue'], files: whisperFiles });
  hostileManifest('fifo-model', (p) => execFileSync('mkfifo', [p]));
  hostileManifest('zero-model', (p) => symlinkSync('/dev/zero', p));
  const chat = { task: 'chat', family: 'gguf', files: { model: 'model.gguf' }, contextLength: 2048, ramBytes: 1000 };
  install('chat-fifo', chat, { 'model.gguf': (p) => execFileSync('mkfifo', [p]) });
  writeFileSync(join(sandbox.dir, 'outside.gguf'), tinyGguf());
  install('chat-link', chat, { 'model.gguf': (p) => symlinkSync(join(sandbox.dir, 'outside.gguf'), p) });
  engine = await sandbox.start(KEY, { modelsDir: models, speakerAdaptation: false });
  const up = await fetch(`${engine.url}/v2/upload`, { method: 'POST', headers: { authorization: KEY }, body: new Uint8Array(wavBytes(new Int16Array(16000))) });
  uploadUrl = ((await up.json()) as { upload_url: string }).upload_url;
});
afterAll(() => sandbox.cleanup());

describe('a tampered models folder', () => {
  it('lists the models that read well, with a FIFO and a link to /dev/zero among the manifests', async () => {
    const list = await api('/v1/models');
    expect(list.status).toBe(200);
    const ids = (list.json.data as { id: string }[]).map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['chat-fifo', 'chat-link', 'verbatim-extractive']));
    expect(ids).not.toContain('fifo-model');
    expect(ids).not.toContain('zero-model');
  });

  it('answers 400 naming a speech model whose manifest is a FIFO or a link, and still takes the good one', async () => {
    for (const id of ['fifo-model', 'zero-model']) {
      const r = await api('/v2/transcript', { audio_url: uploadUrl, speech_models: [id] });
      expect(r.status).toBe(400);
      expect(r.error).toMatch(new RegExp(`The model ${id} cannot be used: its verbatim-model.json is a (FIFO|link)`));
    }
    expect((await api('/v2/transcript', { audio_url: uploadUrl, speech_models: ['whisper-many'], language_code: 'de' })).status).toBe(200);
  });

  it('closes a live session on a speech model whose manifest is a FIFO, naming the model', async () => {
    const ws = new WebSocket(`${engine.url.replace(/^http/, 'ws')}/v3/ws?sample_rate=16000&speech_model=fifo-model`, { headers: { Authorization: KEY } });
    const [code, reason] = await new Promise<[number, string]>((resolve) => ws.on('close', (c, r) => resolve([c, r.toString()])));
    expect(code).toBe(3006);
    expect(reason).toMatch(/speech_model fifo-model is broken/);
  });

  it('refuses a chat model whose model.gguf is a FIFO or a link out of its folder, naming it (422), and keeps answering', async () => {
    const ask = (model: string) => api('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hello' }] });
    const fifo = await ask('chat-fifo');
    expect(fifo.status).toBe(422);
    expect(JSON.stringify(fifo.json)).toMatch(/The model chat-fifo cannot be used: its model file model.gguf is a FIFO/);
    const link = await ask('chat-link');
    expect(link.status).toBe(422);
    expect(JSON.stringify(link.json)).toMatch(/The model chat-link cannot be used: its model file model.gguf links outside the model's folder/);
    expect((await api('/health')).status).toBe(200);
  });
});

describe('Whisper language codes', () => {
  it('answers 400 naming a code Whisper does not know (jv; Whisper writes Javanese jw)', async () => {
    const r = await api('/v2/transcript', { audio_url: uploadUrl, speech_models: ['whisper-many'], language_code: 'jv' });
    expect(r.status).toBe(400);
    expect(r.error).toMatch(/language_code "jv" is not a language Whisper knows \(Whisper writes Javanese as "jw"\)/);
  });

  it('takes a three-letter code Whisper knows as it is (yue is not cut to yu)', async () => {
    const r = await api('/v2/transcript', { audio_url: uploadUrl, speech_models: ['whisper-many'], language_code: 'yue' });
    expect(r.status, r.error).toBe(200);
    expect(r.json.language_code).toBe('yue');
  });
});
