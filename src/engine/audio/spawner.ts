/**
 * Runs short-lived tools (ffmpeg) from a small long-lived helper process.
 * `child_process.spawn` forks the calling process, and forking the engine
 * (hundreds of MB with the decoders loaded) stalls its event loop for tens of
 * milliseconds; the helper is small, so its forks are cheap and off our loop.
 * Falls back to a direct spawn when the helper cannot run.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface RunResult {
  code: number | null;
  /** The last ~4 KB of stderr. */
  stderr: string;
}

const HELPER = `
const { spawn } = require('node:child_process');
const running = new Map();
process.on('message', (m) => {
  if (m.kill) { running.get(m.id)?.kill('SIGKILL'); return; }
  let err = '';
  let p;
  try { p = spawn(m.cmd, m.args, { stdio: ['ignore', 'ignore', 'pipe'] }); } catch (e) { process.send({ id: m.id, error: String(e && e.code || e) }); return; }
  running.set(m.id, p);
  p.stderr.on('data', (d) => { err = (err + d.toString()).slice(-4096); });
  p.on('error', (e) => { running.delete(m.id); process.send({ id: m.id, error: String(e.code || e.message) }); });
  p.on('close', (code) => { if (!running.has(m.id)) return; running.delete(m.id); process.send({ id: m.id, code, stderr: err }); });
});
process.on('disconnect', () => { for (const p of running.values()) p.kill('SIGKILL'); process.exit(0); });
`;

interface Pending {
  /** The helper running it: when that helper stops, only its own calls fail. */
  helper: ChildProcess;
  resolve: (r: RunResult) => void;
  reject: (e: Error) => void;
}

let helper: ChildProcess | null = null;
let helperFailed = false;
let nextId = 1;
const pending = new Map<number, Pending>();

function getHelper(): ChildProcess | null {
  if (helper || helperFailed) return helper;
  try {
    const h = spawn(process.execPath, ['-e', HELPER], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    h.on('message', (m: { id: number; code?: number | null; stderr?: string; error?: string }) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) {
        const e = new Error(m.error) as NodeJS.ErrnoException;
        e.code = m.error;
        p.reject(e);
      } else p.resolve({ code: m.code ?? null, stderr: m.stderr ?? '' });
    });
    h.on('exit', () => {
      // A helper stopped by stopSpawner() may exit after a new one started: that one and its calls stay.
      if (helper === h) helper = null;
      for (const [id, p] of pending) {
        if (p.helper !== h) continue;
        pending.delete(id);
        p.reject(new Error('the process helper stopped'));
      }
    });
    // A message sent on a channel that just closed: its call fails through send's callback or the exit above.
    h.on('error', () => undefined);
    h.unref();
    (h.channel as { unref?: () => void } | undefined)?.unref?.();
    helper = h;
  } catch {
    helperFailed = true;
  }
  return helper;
}

/** Starts the helper now (at engine start, while the process is still small). */
export function startSpawner(): void {
  getHelper();
}

export function stopSpawner(): void {
  if (helper?.connected) helper.disconnect();
  helper = null;
}

function runDirect(cmd: string, args: string[], signal?: AbortSignal): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    let err = '';
    const p = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], signal });
    p.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4096)));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, stderr: err }));
  });
}

/** Runs `cmd args` to completion; rejects with `code: 'ENOENT'` when the tool is missing, or the abort reason. */
export function runTool(cmd: string, args: string[], signal?: AbortSignal): Promise<RunResult> {
  signal?.throwIfAborted();
  const h = getHelper();
  if (!h?.connected) return runDirect(cmd, args, signal);
  const id = nextId++;
  return new Promise<RunResult>((resolve, reject) => {
    const onAbort = () => {
      if (h.connected) h.send({ id, kill: true }, () => undefined);
      pending.delete(id);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    pending.set(id, {
      helper: h,
      resolve: (r) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(r);
      },
      reject: (e) => {
        signal?.removeEventListener('abort', onAbort);
        reject(e);
      },
    });
    h.send({ id, cmd, args }, (err) => {
      const p = err ? pending.get(id) : undefined;
      if (!p) return;
      pending.delete(id);
      p.reject(new Error('the process helper stopped'));
    });
  });
}
