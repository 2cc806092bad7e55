/**
 * Runs native work that can crash (sherpa-onnx on a model file we did not write) in a forked Node child, so a SIGSEGV, an abort or an exit(255) costs the requests in flight a clear Error, never the engine.
 *
 * How it works: `NativeChild.request(kind, payload)` sends `{id, kind, payload}` over the IPC channel
 * (advanced serialization, so typed arrays such as PCM travel as binary, not JSON) and resolves with the
 * child's answer. Every request has a deadline; when it passes, or the child dies, the child is killed
 * and every pending request rejects with an Error naming what happened (the signal or exit status and
 * the last lines the child wrote to stderr, where sherpa-onnx says why). The next request forks a fresh
 * child. With no request for `idleMs` the child exits, freeing whatever it had loaded.
 *
 * Adding another kind of work (diarization, say): write a module that exports
 * `handlers: Record<string, (payload) => Promise<unknown> | unknown>` (state such as loaded models lives in
 * module variables in the child; make handlers load on demand, since a fresh child starts empty), register
 * it in the kinds list its worker's entry serves (recognizer/sherpa/child-kinds.ts for sherpa-onnx) under a prefix
 * (`diarize`), and call `child.request('diarize.<handler>', payload)`.
 * Loading and running in one child per kind of work keeps one kind's crash from costing the other's state.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEntry, type ChildScript } from './entry';

/** What travels to the child. */
export interface ChildRequest {
  id: number;
  kind: string;
  payload: unknown;
}

/** What comes back. */
export type ChildResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

export interface NativeChildOptions {
  /** Named in errors and logs ("speech recognition", "diarization"). */
  name: string;
  /** The child exits after this long without a request (default 60 s). */
  idleMs?: number;
  /** Default deadline of one request (default 10 min). */
  timeoutMs?: number;
  /** The worker's entry script (default: the generic child.ts, which serves only `modules`). */
  entry?: ChildScript;
  /** Extra handler modules by kind prefix (absolute paths), for tests; production kinds live beside their handlers. */
  modules?: Record<string, string>;
  /** Called when a child exits, expectedly or not (so a caller can forget what it had loaded there). */
  onExit?: (reason: string) => void;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
  kind: string;
}

/** The generic entry, which serves only the modules its host names. */
const GENERIC: ChildScript = { name: 'child', sourceDir: dirname(fileURLToPath(import.meta.url)) };

/**
 * The libuv thread pool a worker runs its asynchronous native calls on (sherpa-onnx's decodeAsync): one thread a
 * core, at least libuv's default 4, or what UV_THREADPOOL_SIZE says; with the default 4, a machine of more
 * cores could never decode more segments at once.
 */
export function workerThreadPool(): number {
  return Math.max(1, Math.floor(Number(process.env.UV_THREADPOOL_SIZE)) || Math.max(4, availableParallelism()));
}

/** An idle child never keeps the engine (or a test) alive by itself; one with requests in flight does. */
function hold(child: ChildProcess, on: boolean): void {
  const channel = child.channel as { ref?: () => void; unref?: () => void } | null | undefined;
  if (on) {
    child.ref();
    channel?.ref?.();
  } else {
    child.unref();
    channel?.unref?.();
  }
}

export class NativeChild {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private idleTimer: NodeJS.Timeout | null = null;
  private stderrTail: string[] = [];
  private closed = false;
  /** How many children were started (a new one starts empty). */
  generation = 0;

  constructor(private readonly opts: NativeChildOptions) {}

  /** Whether a child is running now. */
  get running(): boolean {
    return this.child !== null;
  }

  /** The running child's pid, if any. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Runs `kind` (`prefix.handler`) in the child. Rejects with an Error when the
   * handler throws, when the deadline passes, or when the child dies.
   */
  request<T>(kind: string, payload: unknown, opts: { timeoutMs?: number } = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`${this.opts.name}: the worker is shut down`));
    let child: ChildProcess;
    try {
      child = this.ensure();
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    this.clearIdle();
    hold(child, true);
    const id = this.nextId++;
    const timeoutMs = opts.timeoutMs ?? this.opts.timeoutMs ?? 600_000;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill(
          child,
          `${this.opts.name}: ${kind} took longer than ${timeoutMs < 10_000 ? (timeoutMs / 1000).toFixed(1) : Math.round(timeoutMs / 1000)} s; the worker was stopped`,
        );
      }, timeoutMs);
      timer.unref();
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer, kind });
      const msg: ChildRequest = { id, kind, payload };
      child.send(msg, (err) => {
        if (err) this.settle(id, new Error(`${this.opts.name}: could not reach the worker (${err.message})`));
      });
    });
  }

  /** Stops the child (pending requests reject) and refuses further requests. */
  close(): void {
    this.closed = true;
    this.clearIdle();
    if (this.child) this.kill(this.child, `${this.opts.name}: the worker is shut down`);
  }

  /** Stops the running child now (pending requests reject with `reason`); the next request starts a fresh one. */
  restart(reason = `${this.opts.name}: the worker was restarted`): void {
    if (this.child) this.kill(this.child, reason);
  }

  private ensure(): ChildProcess {
    if (this.child) return this.child;
    const { script, execArgv } = childEntry(this.opts.entry ?? GENERIC);
    const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1', UV_THREADPOOL_SIZE: String(workerThreadPool()) };
    if (this.opts.modules) env.VERBATIM_NATIVE_MODULES = JSON.stringify(this.opts.modules);
    const child = fork(script, [], { execArgv, env, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    this.child = child;
    this.generation++;
    this.stderrTail = [];
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line.trim()) this.stderrTail.push(line.trim().slice(0, 300));
      if (this.stderrTail.length > 6) this.stderrTail.splice(0, this.stderrTail.length - 6);
    });
    child.on('message', (raw: unknown) => this.onMessage(raw));
    child.on('error', (err) => this.onGone(child, `${this.opts.name}: the worker failed (${err.message})`));
    child.on('exit', (code, signal) => {
      const how = signal ? `was killed by ${signal}` : `exited with status ${code}`;
      this.onGone(child, `${this.opts.name}: the worker ${how}`);
    });
    return child;
  }

  private onMessage(raw: unknown): void {
    const msg = raw as ChildResponse;
    if (!msg || typeof msg !== 'object' || typeof msg.id !== 'number') return;
    if (msg.ok) this.settle(msg.id, null, msg.result);
    else this.settle(msg.id, new Error(String(msg.error)));
  }

  private settle(id: number, err: Error | null, result?: unknown): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    if (err) p.reject(err);
    else p.resolve(result);
    if (this.pending.size === 0) this.armIdle();
  }

  private kill(child: ChildProcess, reason: string): void {
    this.onGone(child, reason);
    child.kill('SIGKILL');
  }

  /** The child is gone (or going): every pending request rejects, and the next request forks anew. */
  private onGone(child: ChildProcess, reason: string): void {
    if (this.child !== child) return;
    this.child = null;
    this.clearIdle();
    const said = this.stderrTail.length > 0 ? ` (it said: ${this.stderrTail.join(' | ')})` : '';
    for (const [id, p] of [...this.pending]) {
      this.pending.delete(id);
      clearTimeout(p.timer);
      p.reject(new Error(`${reason} during ${p.kind}${said}`));
    }
    this.opts.onExit?.(reason);
  }

  private armIdle(): void {
    this.clearIdle();
    if (!this.child) return;
    const child = this.child;
    hold(child, false);
    this.idleTimer = setTimeout(() => {
      if (this.pending.size === 0 && this.child === child) this.kill(child, `${this.opts.name}: idle`);
    }, this.opts.idleMs ?? 60_000);
    this.idleTimer.unref();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
