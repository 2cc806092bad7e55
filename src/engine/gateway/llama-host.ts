/**
 * Forks and talks to the local-model child process (llama-child.ts): sends
 * a generation, streams its text back, forwards an abort, and turns the
 * child's death (a crash in llama.cpp, a kill) into a clear error for the
 * answers in flight. Killing the child frees the model's memory at once.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEntry } from '../native/entry';
import type { ChildToHost, GenerateJob, HostToChild } from './llama-protocol';
import { GatewayError, type Completion } from './provider';

interface Pending {
  onStart(): void;
  onText(s: string): void;
  resolve(c: Completion): void;
  reject(e: Error): void;
}

/** The child's script: llama-child.ts here when running from source, `llama-child.js|.mjs` beside a bundle. */
const LLAMA_CHILD = { name: 'llama-child', sourceDir: dirname(fileURLToPath(import.meta.url)) };

export class LlamaChild {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private stderrTail: string[] = [];
  private nextId = 1;

  constructor(
    private readonly onEvent: (e: { type: 'binary' | 'load'; ms: number }) => void,
    /** Called when the child exits, for whatever reason (its model is gone with it). */
    private readonly onExit: () => void,
  ) {}

  get running(): boolean {
    return this.child !== null;
  }

  /** The child's pid while it runs (the bench reads its memory). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  private ensure(): ChildProcess {
    if (this.child) return this.child;
    let entry: ReturnType<typeof childEntry>;
    try {
      entry = childEntry(LLAMA_CHILD);
    } catch (err) {
      throw new GatewayError(503, `The local-model worker could not start: ${err instanceof Error ? err.message : String(err)}.`);
    }
    const { script, execArgv } = entry;
    const child = fork(script, [], {
      execArgv,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child = child;
    this.stderrTail = [];
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line.trim()) this.stderrTail.push(line.trim().slice(0, 300));
      if (this.stderrTail.length > 6) this.stderrTail.splice(0, this.stderrTail.length - 6);
    });
    child.on('message', (raw: unknown) => this.onMessage(raw as ChildToHost));
    child.on('error', () => undefined);
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      const how = signal ? `was stopped by ${signal}` : `exited with status ${code}`;
      const tail = this.stderrTail.slice(-3).join(' ');
      for (const [id, p] of this.pending) {
        this.pending.delete(id);
        p.reject(
          new GatewayError(
            500,
            `The local model's process ${how} while answering${tail ? `: ${tail}` : ''}. Try again; if it happens again, delete the model on the Models screen and download it again.`,
          ),
        );
      }
      this.onExit();
    });
    return child;
  }

  private onMessage(m: ChildToHost): void {
    if (m.t === 'binary' || m.t === 'loaded') {
      this.onEvent({ type: m.t === 'binary' ? 'binary' : 'load', ms: m.ms });
      return;
    }
    if (m.t === 'ready') return;
    const p = this.pending.get(m.id);
    if (!p) return;
    if (m.t === 'start') p.onStart();
    else if (m.t === 'text') p.onText(m.s);
    else if (m.t === 'done') {
      this.pending.delete(m.id);
      p.resolve({ content: m.content, finish_reason: m.finish, usage: { prompt_tokens: m.promptTokens, completion_tokens: m.completionTokens } });
    } else if (m.t === 'error') {
      this.pending.delete(m.id);
      p.reject(new GatewayError(m.status, m.message));
    }
  }

  /** One generation; resolves with the whole answer (a partial one when `signal` aborts it). */
  run(job: Omit<GenerateJob, 'id'>, signal: AbortSignal | undefined, onStart: () => void, onText: (s: string) => void): Promise<Completion> {
    const child = this.ensure();
    const id = this.nextId++;
    return new Promise<Completion>((resolve, reject) => {
      const onAbort = (): void => {
        if (this.pending.has(id)) child.send({ t: 'abort', id } satisfies HostToChild, () => undefined);
      };
      const done = (): void => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        onStart,
        onText,
        resolve: (c) => {
          done();
          resolve(c);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      child.send({ t: 'generate', job: { ...job, id } } satisfies HostToChild, (err) => {
        if (err && this.pending.delete(id)) {
          done();
          reject(new GatewayError(500, `The local model's process could not be reached (${err.message}).`));
        }
      });
      if (signal?.aborted) onAbort();
    });
  }

  /** Ends the child (its model's memory goes back to the system) and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGKILL');
    await exited;
  }
}
