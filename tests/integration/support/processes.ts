/**
 * Engine and host mode as real child processes, for tests that must see a
 * crash as an exit and read the process's memory: launch, raw-socket
 * requests, RSS from /proc, and a liveness check.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = resolve(import.meta.dirname, '../../..');

export interface Child {
  proc: ChildProcess;
  port: number;
  stderr(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  stop(): Promise<void>;
}

function waitForLine(proc: ChildProcess, pattern: RegExp, what: string, stderr: () => string): Promise<RegExpExecArray> {
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`${what} did not start in 45 s: ${stderr()}`)), 45_000);
    const rl = createInterface({ input: proc.stdout! });
    rl.on('line', (l) => {
      const m = pattern.exec(l);
      if (m) {
        clearTimeout(timer);
        res(m);
      }
    });
    proc.once('exit', (c) => {
      clearTimeout(timer);
      rej(new Error(`${what} exited with ${c}: ${stderr()}`));
    });
  });
}

function wrap(proc: ChildProcess, port: number, err: { text: string }): Child {
  return {
    proc,
    port,
    stderr: () => err.text,
    alive: () => proc.exitCode === null && proc.signalCode === null,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}

function start(args: string[], env: NodeJS.ProcessEnv): { proc: ChildProcess; err: { text: string } } {
  const proc = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const err = { text: '' };
  proc.stderr!.on('data', (d: Buffer) => {
    err.text = (err.text + d.toString()).slice(-20_000);
  });
  return { proc, err };
}

/** `npm run engine` on a random port. */
export async function launchEngine(dataDir: string, apiKey: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Child> {
  const { proc, err } = start(
    [join(ROOT, 'src/engine/index.ts'), '--port', '0', '--api-key', apiKey, '--data', dataDir, '--workers', '1', '--quiet', ...extra],
    env,
  );
  const m = await waitForLine(proc, /listening on https?:\/\/[^:]+:(\d+)/, 'the engine', () => err.text);
  return wrap(proc, Number(m[1]), err);
}

/** `npm run serve` (host mode) on a random port, with more of its flags (`--folder DIR`); answers its launch token too. */
export async function launchHost(dir: string, env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<Child & { token: string; url: string }> {
  const { proc, err } = start(
    [join(ROOT, 'src/main/host/cli.ts'), '--port', '0', '--data', join(dir, 'data'), '--renderer', join(dir, 'no-renderer'), ...args],
    {
      VERBATIM_KEY_DIR: join(dir, 'keys'),
      ASSEMBLYAI_API_KEY: '',
      ...env,
    },
  );
  const m = await waitForLine(proc, /(http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+))/, 'host mode', () => err.text);
  return Object.assign(wrap(proc, Number(m[2]), err), { url: m[1] as string, token: m[3] as string });
}

/** Resident memory of a process in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** Waits until a process's RSS holds still (start-up warm-up done): two samples 1 s apart within 3 MiB, at most `maxMs`. Answers the last sample. */
export async function settledRssMiB(pid: number, maxMs = 30_000): Promise<number> {
  const until = Date.now() + maxMs;
  let last = rssMiB(pid);
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = rssMiB(pid);
    if (Math.abs(now - last) < 3 || Date.now() > until) return now;
    last = now;
  }
}

/**
 * Samples a process's RSS until it is at most `limitMiB` (memory given back),
 * or `maxMs` passed; answers the last sample (the caller asserts on it).
 */
export async function rssAtMostMiB(pid: number, limitMiB: number, maxMs = 30_000): Promise<number> {
  const until = Date.now() + maxMs;
  for (;;) {
    const now = rssMiB(pid);
    if (now <= limitMiB || Date.now() > until) return now;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Writes raw bytes to a port and answers the first response: its status code
 * (0 when the server closed or `ms` passed with no response line) and the
 * raw text (latin1).
 */
export function rawRequest(port: number, bytes: string | Buffer | (string | Buffer)[], ms = 3000): Promise<{ status: number; text: string }> {
  return new Promise((res) => {
    const sock = connect(port, '127.0.0.1');
    let text = '';
    const done = () => {
      clearTimeout(timer);
      sock.destroy();
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      res({ status: m ? Number(m[1]) : 0, text });
    };
    const timer = setTimeout(done, ms);
    sock.on('data', (d) => {
      text += d.toString('latin1');
      // Done at the end of the first response: its head, then its Content-Length body (or none).
      const headEnd = text.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, headEnd));
      const chunked = /\r\ntransfer-encoding: *chunked/i.test(text.slice(0, headEnd));
      if (chunked ? text.endsWith('0\r\n\r\n') : text.length >= headEnd + 4 + Number(length?.[1] ?? 0)) done();
      else if (text.length > 256 * 1024) done();
    });
    sock.on('error', done);
    sock.on('close', done);
    sock.on('connect', () => {
      for (const part of Array.isArray(bytes) ? bytes : [bytes]) sock.write(part);
    });
  });
}
