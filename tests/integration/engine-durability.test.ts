/**
 * The engine as a child process: kill -9 in the middle of a job, start again
 * on the same data folder → the job runs again and completes. SIGTERM drains:
 * the running job finishes before the process exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordErrorRate } from '../../src/engine/text/wer';
import { CLIPS, concatSpeech, makeSpeech } from '../fixtures/speech';

const KEY = 'durability-key';
const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
let longClip: string;
let longText: string;
const children: ChildProcess[] = [];

function startChild(data: string, extra: string[] = []): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src/engine/index.ts'), '--port', '0', '--api-key', KEY, '--data', data, '--workers', '1', '--quiet', ...extra],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] as string, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`engine exited early (${code}): ${err}`)));
  });
}

async function api(url: string, path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, { ...init, headers: { authorization: KEY, ...(init.headers as Record<string, string>) } });
  return (await res.json()) as Record<string, unknown>;
}

async function waitStatus(url: string, id: string, want: string[], timeoutMs = 120_000): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const t = await api(url, `/v2/transcript/${id}`);
    if (want.includes(t.status as string)) return t;
    if (Date.now() > until) throw new Error(`transcript ${id} stayed ${String(t.status)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function submitLong(url: string): Promise<string> {
  const up = await api(url, '/v2/upload', { method: 'POST', body: readFileSync(longClip) });
  const t = await api(url, '/v2/transcript', {
    method: 'POST',
    body: JSON.stringify({ audio_url: up.upload_url }),
    headers: { 'content-type': 'application/json' },
  });
  return t.id as string;
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(child.exitCode) : child.once('exit', (c) => r(c))));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'engine-durability-'));
  const parts = (['fox', 'weather', 'meeting', 'fox', 'weather', 'meeting'] as const).map((n, i) => makeSpeech(dir, `${n}${i}`, CLIPS[n]));
  longText = (['fox', 'weather', 'meeting', 'fox', 'weather', 'meeting'] as const).map((n) => CLIPS[n]).join(' ');
  longClip = concatSpeech(dir, 'long', parts, 1);
});

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('engine durability', () => {
  it('refuses to start without an API key', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/engine/index.ts'), '--port', '0', '--data', join(dir, 'nokey')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, VERBATIM_ENGINE_KEY: '' },
    });
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    expect(await exited(child)).toBe(2);
    expect(err).toMatch(/API key is required/);
  });

  it('a job interrupted by kill -9 runs again after a restart and completes', async () => {
    const data = join(dir, 'kill9');
    const first = await startChild(data);
    const id = await submitLong(first.url);
    // Killed as soon as the engine says the job is processing (the long clip takes seconds to decode).
    expect((await waitStatus(first.url, id, ['processing', 'completed', 'error'])).status).toBe('processing');
    first.child.kill('SIGKILL');
    await exited(first.child);
    const second = await startChild(data);
    const t = await waitStatus(second.url, id, ['completed', 'error']);
    expect(t.status).toBe('completed');
    expect(wordErrorRate(longText, t.text as string)).toBeLessThanOrEqual(0.2);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  }, 300_000);

  it('SIGTERM drains: the running job finishes before exit and new jobs are refused meanwhile', async () => {
    const data = join(dir, 'drain');
    // Drained without a deadline that a loaded machine could pass (the default leaves a job queued after 30 s).
    const first = await startChild(data, ['--drain-seconds', '600']);
    const id = await submitLong(first.url);
    await waitStatus(first.url, id, ['processing']);
    first.child.kill('SIGTERM');
    // The engine says it is draining (its own log line) before new jobs are asked for.
    const until = Date.now() + 20_000;
    while (!first.stderr().includes('draining') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(first.stderr()).toContain('draining');
    const refused = await fetch(`${first.url}/v2/transcript`, {
      method: 'POST',
      headers: { authorization: KEY },
      body: JSON.stringify({ audio_url: 'http://127.0.0.1:9/a.wav' }),
    }).catch(() => null);
    if (refused) expect(refused.status).toBe(503);
    expect(await exited(first.child)).toBe(0);
    const second = await startChild(data);
    const t = await api(second.url, `/v2/transcript/${id}`);
    expect(t.status).toBe('completed');
    second.child.kill('SIGTERM');
    await exited(second.child);
  }, 300_000);
});
