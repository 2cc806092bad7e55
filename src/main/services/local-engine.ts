/**
 * The local engine, started on demand: a random key per launch that never
 * leaves main, a free port (the same one again after a crash when it is still
 * free, so upload URLs stay valid), a /health wait, restarts with backoff if it
 * dies, and a stop on quit.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import type { EngineStatus } from '../../shared/jobs';
import type { EngineLauncher, EngineProcess } from '../platform/types';
import { send, sleep } from './client/http';

export interface EngineHandle {
  url: string;
  key: string;
}

export class EngineManager {
  private proc: EngineProcess | null = null;
  private handle: EngineHandle | null = null;
  private starting: Promise<EngineHandle> | null = null;
  private state: EngineStatus = { state: 'stopped', url: null, restarts: 0, message: null };
  private readonly listeners = new Set<(s: EngineStatus) => void>();
  private stopping = false;
  private lastPort = 0;
  private crashTimes: number[] = [];
  readonly key = randomBytes(24).toString('base64url');

  constructor(
    private readonly launcher: EngineLauncher,
    private readonly dataDir: string,
    private readonly opts: { startTimeoutMs?: number; log?: (m: string) => void } = {},
  ) {}

  status(): EngineStatus {
    return this.state;
  }

  onStatus(l: (s: EngineStatus) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  private set(s: Partial<EngineStatus>): void {
    const next = { ...this.state, ...s };
    if (JSON.stringify(next) === JSON.stringify(this.state)) return;
    this.state = next;
    for (const l of this.listeners) l(this.state);
  }

  /** The running engine, started if needed. */
  ensure(): Promise<EngineHandle> {
    if (this.handle) return Promise.resolve(this.handle);
    this.stopping = false;
    this.starting ??= this.launch().finally(() => (this.starting = null));
    return this.starting;
  }

  /** The current URL without starting anything. */
  current(): EngineHandle | null {
    return this.handle;
  }

  private async launch(): Promise<EngineHandle> {
    this.set({ state: this.state.restarts > 0 ? 'restarting' : 'starting', url: null });
    let lastError = '';
    for (const port of this.lastPort ? [this.lastPort, 0] : [0]) {
      try {
        return await this.launchOn(port);
      } catch (e) {
        lastError = e instanceof Error ? e.message : String(e);
      }
    }
    this.set({ state: 'failed', message: lastError });
    throw new AppError('engine_unavailable', `The local engine could not start: ${lastError}`);
  }

  private launchOn(port: number): Promise<EngineHandle> {
    // The key goes by environment: not visible in the process list, and a random key may start with '-',
    // which an argument parser would take for an option.
    // The engine reads the models the app's manager installs (<app data>/models), picking them up without a restart.
    const proc = this.launcher.launch(
      ['--host', '127.0.0.1', '--port', String(port), '--data', join(this.dataDir, 'engine'), '--models', join(this.dataDir, 'models')],
      {
        VERBATIM_ENGINE_KEY: this.key,
      },
    );
    this.proc = proc;
    const stderr: string[] = [];
    return new Promise<EngineHandle>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(
        () => fail(`it did not say where it listens within ${Math.round((this.opts.startTimeoutMs ?? 30_000) / 1000)} s`),
        this.opts.startTimeoutMs ?? 30_000,
      );
      const fail = (why: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        proc.kill();
        reject(new Error(`${why}${stderr.length ? ` (${stderr.slice(-8).join(' | ')})` : ''}`));
      };
      proc.onLine((line, stream) => {
        if (stream === 'stderr') {
          stderr.push(line.slice(0, 300));
          if (stderr.length > 20) stderr.shift();
          this.opts.log?.(`engine: ${line}`);
          return;
        }
        const m = /listening on (http:\/\/\S+)/.exec(line);
        if (m && !settled) {
          const url = m[1]!.replace(/\/+$/, '');
          void this.waitHealthy(url).then(
            () => {
              if (settled) return;
              settled = true;
              clearTimeout(timer);
              this.handle = { url, key: this.key };
              this.lastPort = Number(new URL(url).port);
              this.set({ state: 'running', url, message: null });
              resolve(this.handle);
            },
            (e: unknown) => fail(`its /health did not answer (${e instanceof Error ? e.message : String(e)})`),
          );
        }
      });
      proc.onExit((code) => {
        if (!settled) {
          fail(`it exited with code ${code}`);
          return;
        }
        if (this.proc !== proc) return;
        this.proc = null;
        this.handle = null;
        if (this.stopping) {
          this.set({ state: 'stopped', url: null });
          return;
        }
        this.onCrash(code);
      });
    });
  }

  private onCrash(code: number | null): void {
    const now = Date.now();
    this.crashTimes = [...this.crashTimes.filter((t) => now - t < 60_000), now];
    if (this.crashTimes.length > 5) {
      this.set({
        state: 'failed',
        url: null,
        message: 'The local engine keeps stopping (6 times in a minute). Restart Verbatim; if it persists, check the engine log.',
      });
      return;
    }
    this.set({ state: 'restarting', url: null, restarts: this.state.restarts + 1, message: `The local engine stopped (code ${code}); restarting it.` });
    const delay = Math.min(10_000, 250 * 2 ** (this.crashTimes.length - 1));
    setTimeout(() => {
      if (!this.stopping && !this.handle) this.ensure().catch(() => undefined);
    }, delay).unref();
  }

  private async waitHealthy(url: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        const res = await send({ method: 'GET', url: `${url}/health`, headers: { authorization: this.key }, idleTimeoutMs: 2000 });
        if (res.status === 200) return;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) throw new Error('timeout');
      await sleep(100);
    }
  }

  /** Wait until the engine runs again after a crash (jobs call this on network errors). */
  async awaitRunning(signal?: AbortSignal): Promise<EngineHandle> {
    for (;;) {
      if (this.handle) return this.handle;
      if (this.state.state === 'failed' || this.state.state === 'stopped') return this.ensure();
      await sleep(100, signal);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const proc = this.proc;
    if (!proc) return;
    const exited = new Promise<void>((r) => proc.onExit(() => r()));
    proc.kill();
    await Promise.race([exited, sleep(5000)]);
    this.proc = null;
    this.handle = null;
    this.set({ state: 'stopped', url: null });
  }
}
