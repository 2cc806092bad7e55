/** Runs heavy library work on the library's worker thread (library-worker.ts), or in this thread when there is no worker (an in-memory database, a build without it). */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type * as Koffi from 'koffi';
import { decodeBridgeRequest, type DecodedRequest } from '../../../shared/bridge-request';
import { AppError, type ErrorInfo } from '../../../shared/errors';
import type { Cue, Splice } from '../../../shared/subtitles/index';
import type { SubtitleDoc } from '../../../shared/subtitles/schema';
import type { LibraryChange, LibraryContext } from './db';
import type { SubtitleStore } from './subtitles';

/** Cues a commit carries go over in parts of this many, a turn of the event loop between (copying 200,000 at once holds it ~150 ms). */
export const PART = 5_000;

/** Part of a commit's splice, sent before the task; the task then names `parts: true`. */
export type LibraryWorkerPart = { seq: number; op: 'part'; key: 'remove' | 'insert'; cues: Cue[] };
export type LibraryWorkerTask = { seq: number; parts?: boolean } & (
  | { op: 'importSubtitles'; name: string; content: string; source: string }
  | {
      op: 'commitSubtitles';
      id: string;
      version: number;
      label: string;
      splice: Splice;
      doc?: { header?: string[]; trailer?: string[] };
      /** The splice the worker kept when it decoded the bridge message (decodeRequest), instead of `splice`'s empty lists. */
      parked?: number;
    }
  /** `json`: answer the checked document as UTF-8 JSON bytes, for host mode's bridge. */
  | { op: 'openSubtitles'; id: string; json?: boolean }
  | { op: 'decodeRequest'; bytes: Uint8Array }
);
/** What the worker answers a decodeRequest: a commit's big splice stays in the worker under `parked`, and its input comes with empty lists. */
export type DecodedInWorker = { decoded: DecodedRequest; parked?: number };
type Task = LibraryWorkerTask extends infer T ? (T extends unknown ? Omit<T, 'seq' | 'parts'> : never) : never;
/** An answer's cues come back the same way: parts first, then the reply with `parts: true` and an empty `cues`. */
export type LibraryWorkerReply =
  | { seq: number; op: 'part'; cues: Cue[] }
  | ({ seq: number; op?: undefined; changes: LibraryChange[]; parts?: boolean } & ({ ok: true; value: unknown } | { ok: false; error: ErrorInfo }));
/** An idle worker ends after this long, and its memory goes with it (a 200,000-cue import leaves ~500 MB of heap). */
const IDLE_MS = 5_000;

/** The worker's entry: beside the bundle when built, else the TypeScript source run through tsx. */
function workerEntry(): { script: string; execArgv: string[] } | null {
  const self = fileURLToPath(import.meta.url);
  const ext = extname(self);
  if (ext === '.ts') {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    return { script: join(dirname(self), 'library-worker.ts'), execArgv: ['--import', tsx] };
  }
  // Bundled (out/host/cli-main.mjs, out/main/index.js), perhaps from a chunk one folder down.
  const script = [dirname(self), dirname(dirname(self))].map((d) => join(d, `library-worker${ext}`)).find((c) => existsSync(c));
  return script ? { script, execArgv: [] } : null;
}

/** What the offload needs of its library (library.ts), named here so that the two do not import each other. */
export interface OffloadLibrary {
  readonly dbFile: string;
  readonly dataDir: string;
  readonly context: Pick<LibraryContext, 'changed'>;
  readonly subtitles: Pick<SubtitleStore, 'commit' | 'open'>;
}

/** One worker per library, started on first use; tasks run one at a time in the order given. */
export class LibraryOffload {
  private worker: Worker | null = null;
  private seq = 0;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void; cues: Cue[] }>();
  private idle: NodeJS.Timeout | null = null;
  /** Splices of decoded commits (their input's empty `splice`) whose cues the worker kept, by the key it kept them under. */
  private readonly parked = new WeakMap<Splice, number>();

  constructor(private readonly library: OffloadLibrary) {}

  private start(): Worker | null {
    if (this.worker) return this.worker;
    const file = this.library.dbFile;
    const entry = workerEntry();
    if (!entry || !file || file === ':memory:') return null;
    const w = new Worker(entry.script, { workerData: { dataDir: this.library.dataDir, dbFile: file }, execArgv: entry.execArgv });
    w.on('message', (r: LibraryWorkerReply) => {
      const p = this.waiting.get(r.seq);
      if (!p) return;
      if (r.op === 'part') {
        for (const c of r.cues) p.cues.push(c);
        setImmediate(() => w.postMessage({ seq: r.seq, op: 'more' }));
        return;
      }
      this.waiting.delete(r.seq);
      for (const c of r.changes) this.library.context.changed(c.ids, c.reason);
      if (r.ok) p.resolve(r.parts ? { ...(r.value as object), cues: p.cues } : r.value);
      else p.reject(r.error.code === 'internal' ? new Error(r.error.message) : AppError.from(r.error));
      if (!this.waiting.size) {
        w.unref();
        this.idle = setTimeout(() => void this.close(), IDLE_MS);
        this.idle.unref();
      }
    });
    const fail = (e: unknown) => {
      const err = new AppError('internal', `The library's worker stopped (${e instanceof Error ? e.message : String(e)}); try again.`);
      for (const p of this.waiting.values()) p.reject(err);
      this.waiting.clear();
      if (this.worker === w) this.worker = null;
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    this.worker = w;
    return w;
  }

  private async run<T>(task: Task, inProcess: () => T, transfer: ArrayBuffer[] = []): Promise<T> {
    const w = this.start();
    if (!w) return inProcess();
    const seq = ++this.seq;
    w.ref();
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const answer = new Promise<T>((resolve, reject) => this.waiting.set(seq, { resolve: resolve as (v: unknown) => void, reject, cues: [] }));
    const parked = task.op === 'commitSubtitles' ? this.parked.get(task.splice) : undefined;
    if (task.op === 'commitSubtitles' && parked !== undefined) w.postMessage({ ...task, seq, parked } satisfies LibraryWorkerTask);
    else if (task.op === 'commitSubtitles' && task.splice.remove.length + task.splice.insert.length > PART) {
      for (const key of ['remove', 'insert'] as const)
        for (let i = 0; i < task.splice[key].length; i += PART) {
          w.postMessage({ seq, op: 'part', key, cues: task.splice[key].slice(i, i + PART) } satisfies LibraryWorkerPart);
          await new Promise((r) => setImmediate(r));
        }
      w.postMessage({ ...task, seq, parts: true, splice: { at: task.splice.at, remove: [], insert: [] } } satisfies LibraryWorkerTask);
    } else w.postMessage({ ...task, seq } satisfies LibraryWorkerTask, transfer);
    return answer;
  }

  /**
   * A big bridge message (UTF-8 JSON) read and checked on the worker thread:
   * the same reading as shared/bridge-request.ts, and the input parsed with
   * its channel's schema (a 200,000-cue commit holds the event loop ~300 ms
   * for that). `bytes` is handed over: do not use it after.
   */
  async decodeRequest(bytes: Uint8Array): Promise<DecodedRequest> {
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
    const r = await this.run<DecodedInWorker>({ op: 'decodeRequest', bytes: own }, () => ({ decoded: decodeBridgeRequest(new TextDecoder().decode(own)) }), [
      own.buffer as ArrayBuffer,
    ]);
    if (r.parked !== undefined && r.decoded.ok) this.parked.set((r.decoded.input as { splice: Splice }).splice, r.parked);
    return r.decoded;
  }

  /** A subtitle file as a new item (subtitle-import.ts), parsed and stored off the event loop; `inProcess` does the same here when no worker can start. */
  importSubtitles<T>(name: string, content: string, source: string, inProcess: () => T): Promise<T> {
    return this.run({ op: 'importSubtitles', name, content, source }, inProcess);
  }

  /** subtitles.commit off the event loop (a Reset or an import onto the cues replaces up to 200,000 of them). */
  commitSubtitles(id: string, version: number, label: string, splice: Splice, doc?: { header?: string[]; trailer?: string[] }): Promise<{ version: number }> {
    return this.run({ op: 'commitSubtitles', id, version, label, splice, doc }, () => this.library.subtitles.commit(id, version, label, splice, doc));
  }

  /** subtitles.open as checked UTF-8 JSON made on the worker (for host mode's bridge); null when there is no worker. */
  openSubtitlesJson(id: string): Promise<Uint8Array | null> {
    return this.run<Uint8Array | null>({ op: 'openSubtitles', id, json: true }, () => null);
  }

  /** subtitles.open off the event loop (reading, repairing and joining 200,000 cues with their words). */
  openSubtitles(id: string): Promise<{ doc: SubtitleDoc; checked: boolean }> {
    let checked = true;
    return this.run({ op: 'openSubtitles', id }, () => ((checked = false), this.library.subtitles.open(id))).then((doc) => ({ doc, checked }));
  }

  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const w = this.worker;
    this.worker = null;
    if (!w) return;
    await w.terminate();
    await trimCHeap();
  }
}

type Trim = { async(pad: number, done: (err: unknown, freed: number) => void): void };
let trim: Trim | null | undefined;
/**
 * glibc keeps what the worker's thread freed (its SQLite pages, its heap) in
 * the process until malloc_trim: without it a 200,000-cue import leaves host
 * mode ~150 MiB bigger for good. It walks the whole C heap (~30 ms after such
 * an import), so it runs on libuv's thread pool, not the event loop. Not
 * glibc: nothing to do.
 */
function trimCHeap(): Promise<void> {
  if (trim === undefined) {
    try {
      const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
      trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as unknown as Trim;
    } catch {
      trim = null;
    }
  }
  const t = trim;
  return t ? new Promise((resolve) => t.async(0, () => resolve())) : Promise.resolve();
}
