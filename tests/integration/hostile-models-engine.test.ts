/**
 * A tampered models folder against a real engine process (issue 37, findings
 * 6–8): manifests, tokens and weights that are FIFOs, links to /dev/zero or
 * out of the folder, oversized, malformed or lying about themselves, GGUF
 * files likewise; placed before the engine starts (its start-up listing) and
 * while it runs (picked up with no restart). Every request naming such a
 * model answers with a clear error that names it, the good model beside
 * them keeps transcribing, and the engine ends alive with no unhandled
 * rejection, its own CPU inside its longest event-loop gap under 100 ms, and
 * its memory back within 150 MiB. hostile-models-host.test.ts is the manager's half.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_MANIFEST_FILE } from '../../src/shared/models/catalog';
import { installTinyGguf } from '../fixtures/models/gguf';
import { wavBytes } from '../fixtures/models/speakers';
import { toneSequence, writeTinyModel } from '../fixtures/models/speech';
import { finalLoop, loopProbeEnv, resetLoop } from './support/loop';
import { launchEngine, rssAtMostMiB, rssMiB, settledRssMiB, type Child } from './support/processes';

const KEY = 'hostile-models-key';
let dir: string;
let models: string;
let outside: string;
let probe: string;
let engine: Child;
let uploadUrl = '';
const figures = { inputs: 0, answers: {} as Record<string, number>, rssBefore: 0, rssAfter: 0, loopMaxMs: 0, worstGapCpuMs: 0 };

/** A request to the engine; `input` counts it as one of the hostile inputs (polls of a job's status do not count). */
async function api(path: string, init: RequestInit = {}, input = true): Promise<Response> {
  if (input) figures.inputs++;
  return fetch(`http://127.0.0.1:${engine.port}${path}`, { ...init, headers: { authorization: KEY, 'content-type': 'application/json', ...init.headers } });
}

type Tamper = (folder: string) => void;
const manifestOf = (folder: string) => join(folder, MODEL_MANIFEST_FILE);
const rewrite = (folder: string, change: (m: Record<string, unknown>) => unknown) =>
  writeFileSync(manifestOf(folder), JSON.stringify(change(JSON.parse(readFileSync(manifestOf(folder), 'utf8')) as Record<string, unknown>)));
const replace = (file: string, make: (path: string) => void) => (rmSync(file, { force: true, recursive: true }), make(file));
const fifo = (p: string) => execFileSync('mkfifo', [p]);

/** Speech-model tamperings, each on its own copy of a tiny zipformer transducer (files: encoder, decoder, joiner, tokens). */
const SPEECH: Record<string, Tamper> = {
  'manifest-fifo': (f) => replace(manifestOf(f), fifo),
  'manifest-dev-zero': (f) => replace(manifestOf(f), (p) => symlinkSync('/dev/zero', p)),
  'manifest-link-out': (f) => (
    writeFileSync(join(outside, 'm.json'), readFileSync(manifestOf(f))),
    replace(manifestOf(f), (p) => symlinkSync(join(outside, 'm.json'), p))
  ),
  'manifest-huge': (f) => writeFileSync(manifestOf(f), ' '.repeat(20 * 1024 * 1024) + readFileSync(manifestOf(f), 'utf8')),
  'manifest-not-json': (f) => writeFileSync(manifestOf(f), '{"id": "manifest-not-json", '),
  'manifest-array': (f) => writeFileSync(manifestOf(f), '[1,2,3]'),
  'manifest-folder': (f) => replace(manifestOf(f), (p) => mkdirSync(p)),
  'manifest-binary': (f) => writeFileSync(manifestOf(f), randomBytes(4096)),
  'id-mismatch': (f) => rewrite(f, (m) => ({ ...m, id: 'someone-else' })),
  'path-climbs-out': (f) => rewrite(f, (m) => ({ ...m, files: { ...(m.files as object), tokens: '../../../../etc/passwd' } })),
  'path-absolute': (f) => rewrite(f, (m) => ({ ...m, files: { ...(m.files as object), encoder: '/etc/passwd' } })),
  'role-missing': (f) => rewrite(f, (m) => ({ ...m, files: { tokens: 'tokens.txt' } })),
  'family-unknown': (f) => rewrite(f, (m) => ({ ...m, family: 'telepathy' })),
  'task-chat': (f) => rewrite(f, (m) => ({ ...m, task: 'chat' })),
  'tokens-huge-id': (f) => writeFileSync(join(f, 'tokens.txt'), '<blk> 0\na 1\nb 2\n<unk> 130000000\n'),
  'tokens-id-4g': (f) => writeFileSync(join(f, 'tokens.txt'), '<blk> 0\na 1\nb 2\n<unk> 4000000000\n'),
  'tokens-negative-id': (f) => writeFileSync(join(f, 'tokens.txt'), '<blk> 0\na -1\n'),
  'tokens-empty': (f) => writeFileSync(join(f, 'tokens.txt'), ''),
  'tokens-one-long-line': (f) => writeFileSync(join(f, 'tokens.txt'), 'x'.repeat(64 * 1024 * 1024)),
  'tokens-binary': (f) => writeFileSync(join(f, 'tokens.txt'), randomBytes(100_000)),
  'tokens-fifo': (f) => replace(join(f, 'tokens.txt'), fifo),
  'tokens-dev-zero': (f) => replace(join(f, 'tokens.txt'), (p) => symlinkSync('/dev/zero', p)),
  'encoder-fifo': (f) => replace(join(f, 'encoder.onnx'), fifo),
  'encoder-dev-zero': (f) => replace(join(f, 'encoder.onnx'), (p) => symlinkSync('/dev/zero', p)),
  'encoder-empty': (f) => writeFileSync(join(f, 'encoder.onnx'), ''),
  'encoder-garbage': (f) => writeFileSync(join(f, 'encoder.onnx'), randomBytes(200_000)),
  'encoder-truncated': (f) => truncateSync(join(f, 'encoder.onnx'), 100),
  'encoder-folder': (f) => replace(join(f, 'encoder.onnx'), (p) => mkdirSync(p)),
  'joiner-link-out': (f) => (
    writeFileSync(join(outside, 'j.onnx'), readFileSync(join(f, 'joiner.onnx'))),
    replace(join(f, 'joiner.onnx'), (p) => symlinkSync(join(outside, 'j.onnx'), p))
  ),
};

/** Chat-model tamperings, each on its own copy of a tiny GGUF model. */
const CHAT: Record<string, Tamper> = {
  'gguf-fifo': (f) => replace(join(f, 'model.gguf'), fifo),
  'gguf-dev-zero': (f) => replace(join(f, 'model.gguf'), (p) => symlinkSync('/dev/zero', p)),
  'gguf-link-out': (f) => (
    writeFileSync(join(outside, 'x.gguf'), readFileSync(join(f, 'model.gguf'))),
    replace(join(f, 'model.gguf'), (p) => symlinkSync(join(outside, 'x.gguf'), p))
  ),
  'gguf-garbage': (f) => writeFileSync(join(f, 'model.gguf'), randomBytes(100_000)),
  'gguf-empty': (f) => writeFileSync(join(f, 'model.gguf'), ''),
  'gguf-truncated': (f) => truncateSync(join(f, 'model.gguf'), 64),
  'gguf-huge-counts': (f) => {
    // A GGUF v3 header claiming 2^62 tensors and 2^62 metadata pairs.
    const h = Buffer.alloc(24);
    h.write('GGUF', 0, 'latin1');
    h.writeUInt32LE(3, 4);
    h.writeBigUInt64LE(1n << 62n, 8);
    h.writeBigUInt64LE(1n << 62n, 16);
    writeFileSync(join(f, 'model.gguf'), h);
  },
  'gguf-manifest-fifo': (f) => replace(manifestOf(f), fifo),
  'gguf-manifest-dev-zero': (f) => replace(manifestOf(f), (p) => symlinkSync('/dev/zero', p)),
};

function plant(prefix: string): { speech: string[]; chat: string[] } {
  const speech = Object.keys(SPEECH).map((name) => {
    const id = `${prefix}${name}`;
    SPEECH[name]!(writeTinyModel(models, 'zipformer-transducer', id));
    return id;
  });
  const chat = Object.keys(CHAT).map((name) => {
    const id = `${prefix}${name}`;
    CHAT[name]!(dirname(installTinyGguf(models, id)));
    return id;
  });
  return { speech, chat };
}

/** Every request naming a tampered model answers: a 4xx that says what is wrong, or a job that ends in a clear error. */
async function probeModels(ids: { speech: string[]; chat: string[] }): Promise<void> {
  for (const id of ids.speech) {
    const created = await api('/v2/transcript', { method: 'POST', body: JSON.stringify({ audio_url: uploadUrl, speech_models: [id] }) });
    const body = (await created.json()) as { id?: string; error?: string; status?: string };
    figures.answers[`transcript ${created.status}`] = (figures.answers[`transcript ${created.status}`] ?? 0) + 1;
    expect(created.status, `${id}: ${JSON.stringify(body)}`).toBeLessThan(500);
    if (created.status !== 200) continue;
    let t = body;
    while (t.status !== 'completed' && t.status !== 'error') {
      await new Promise((r) => setTimeout(r, 50));
      t = (await (await api(`/v2/transcript/${body.id}`, {}, false)).json()) as typeof body;
    }
    figures.answers[`job ${t.status}`] = (figures.answers[`job ${t.status}`] ?? 0) + 1;
    expect(t.status, `${id} should fail: ${JSON.stringify(t)}`).toBe('error');
    expect(t.error, id).not.toMatch(/fault of the engine/i);
    expect(t.error, id).toMatch(new RegExp(id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  }
  for (const id of ids.chat) {
    const r = await api('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: id, messages: [{ role: 'user', content: 'hi' }] }) });
    const text = await r.text();
    figures.answers[`chat ${r.status}`] = (figures.answers[`chat ${r.status}`] ?? 0) + 1;
    expect(r.status, `${id}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
    expect(r.status, `${id}: ${text.slice(0, 300)}`).toBeLessThan(500);
  }
  const list = await api('/v1/models');
  expect(list.status).toBe(200);
}

async function expectGoodModelWorks(): Promise<void> {
  const created = await api('/v2/transcript', { method: 'POST', body: JSON.stringify({ audio_url: uploadUrl, speech_models: ['good-zipformer'] }) });
  expect(created.status).toBe(200);
  const { id } = (await created.json()) as { id: string };
  let t: { status: string; error?: string; words?: { text: string }[] };
  do {
    await new Promise((r) => setTimeout(r, 50));
    t = (await (await api(`/v2/transcript/${id}`, {}, false)).json()) as typeof t;
  } while (t.status !== 'completed' && t.status !== 'error');
  expect(t.status, t.error).toBe('completed');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hostile-models-engine-'));
  models = join(dir, 'data', 'models');
  outside = join(dir, 'outside');
  mkdirSync(models, { recursive: true });
  mkdirSync(outside);
  probe = join(dir, 'loop.json');
  writeTinyModel(models, 'zipformer-transducer', 'good-zipformer');
  plant('start-');
  engine = await launchEngine(join(dir, 'data'), KEY, [], loopProbeEnv(probe));
  const audio = toneSequence(['beep', 'beep', 'boop']);
  const up = await api('/v2/upload', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(wavBytes(audio.pcm)) });
  uploadUrl = ((await up.json()) as { upload_url: string }).upload_url;
  // One job on the good model first: the job path's one-time start (its voice detector, the model's child) is not a hostile input's cost.
  await expectGoodModelWorks();
  figures.rssBefore = await settledRssMiB(engine.proc.pid as number, 10_000);
  await resetLoop(engine.proc, probe);
});

afterAll(async () => {
  await engine?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a tampered models folder', { timeout: 600_000 }, () => {
  it('answers every request naming a model tampered before the start, and the good model keeps working', async () => {
    await probeModels({ speech: Object.keys(SPEECH).map((n) => `start-${n}`), chat: Object.keys(CHAT).map((n) => `start-${n}`) });
    await expectGoodModelWorks();
    expect(engine.alive()).toBe(true);
  });

  it('answers every request naming a model tampered while it runs, twice over', async () => {
    const ids = plant('live-');
    await probeModels(ids);
    await probeModels(ids);
    await expectGoodModelWorks();
    expect(engine.alive()).toBe(true);
  });

  it('is alive at the end, with no unhandled rejection, its event loop free and its memory back', async () => {
    const loop = await finalLoop(probe);
    figures.loopMaxMs = loop.maxMs;
    figures.worstGapCpuMs = loop.worstGapCpuMs;
    await resetLoop(engine.proc, probe);
    figures.rssAfter = await rssAtMostMiB(engine.proc.pid as number, figures.rssBefore + 149);
    console.log(`hostile-models (engine) figures: ${JSON.stringify({ ...figures, rssPeak: Math.round(rssMiB(engine.proc.pid as number)) })}`);
    expect(engine.alive()).toBe(true);
    expect(engine.stderr()).not.toMatch(/unhandled rejection|uncaught/i);
    expect(figures.inputs).toBeGreaterThanOrEqual(100);
    expect(figures.rssAfter - figures.rssBefore).toBeLessThan(150);
    expect(figures.worstGapCpuMs).toBeLessThan(100);
  });
});
