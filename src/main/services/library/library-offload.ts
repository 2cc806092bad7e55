/** Runs heavy library work on the library's worker thread (library-worker.ts), or in this thread when there is no worker (an in-memory database, a build without it). */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type * as Koffi from 'koffi';
import { AppError, type ErrorInfo } from '../../../shared/errors';
import { wireDoc } from '../../../shared/subtitles/cue-columns';
import type { SubtitleDocWire } from '../../../shared/subtitles/wire';
import type { LibraryChange, LibraryContext } from './db';
import { subtitleText, type SubtitleText } from './subtitle-text';
import type { EditResult, SubtitleCommand, SubtitleStore } from './subtitles';

/**
 * A subtitle file's text for the worker: inline (small), or a file main
 * checked (services/files/subtitle-file.ts) that the worker reads, so a big file's
 * text is never a string on main's event loop; `remove` a staged upload once read.
 */

/** subtitles.run's replaceFrom with its file still to read (subtitle-import.ts subtitleText), on the worker. */
export type ReplaceFromFile = Omit<Extract<SubtitleCommand, { command: 'replaceFrom' }>, 'args'> & { args: { name: string; text: SubtitleText } };

/**
 * A task for the worker. Every message is small: a subtitle file crosses as
 * its path, an edit as its command, and the document comes back as columns
 * (arrays of primitives, cheap to copy between threads).
 */
export type LibraryWorkerTask = { seq: number } & (
  | { op: 'importSubtitles'; name: string; text: SubtitleText; source: string }
  /** `json`: answer the document as UTF-8 JSON checked with its wire schema, for host mode's bridge. */
  | { op: 'openSubtitles'; id: string; json?: boolean }
  | { op: 'runSubtitles'; id: string; version: number; edit: SubtitleCommand | ReplaceFromFile }
  | { op: 'undoSubtitles' | 'redoSubtitles'; id: string; version: number }
);
type Task = LibraryWorkerTask extends infer T ? (T extends unknown ? Omit<T, 'seq'> : never) : never;
export type LibraryWorkerReply = { seq: number; changes: LibraryChange[] } & ({ ok: true; value: unknown } | { ok: false; error: ErrorInfo });
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
  readonly subtitles: Pick<SubtitleStore, 'open' | 'run' | 'undo' | 'redo'>;
}

/** One worker per library, started on first use; tasks run one at a time in the order given. */
export class LibraryOffload {
  private worker: Worker | null = null;
  private seq = 0;
  /** Tasks sent and not yet answered, with the worker each went to. */
  private readonly waiting = new Map<number, { worker: Worker; resolve(v: unknown): void; reject(e: unknown): void }>();
  private idle: NodeJS.Timeout | null = null;

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
      this.waiting.delete(r.seq);
      for (const c of r.changes) this.library.context.changed(c.ids, c.reason);
      if (r.ok) p.resolve(r.value);
      else p.reject(r.error.code === 'internal' ? new Error(r.error.message) : AppError.from(r.error));
      if (!this.waiting.size) {
        w.unref();
        this.idle = setTimeout(() => void this.close(), IDLE_MS);
        this.idle.unref();
      }
    });
    const fail = (e: unknown) => {
      const err = new AppError('internal', `The library's worker stopped (${e instanceof Error ? e.message : String(e)}); try again.`);
      // Only this worker's tasks: one closed when idle may exit after the next has taken new ones.
      for (const [seq, p] of this.waiting)
        if (p.worker === w) {
          this.waiting.delete(seq);
          p.reject(err);
        }
      if (this.worker === w) this.worker = null;
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    this.worker = w;
    return w;
  }

  private run<T>(task: Task, inProcess: () => T): Promise<T> {
    const w = this.start();
    if (!w) return Promise.resolve().then(inProcess);
    const seq = ++this.seq;
    w.ref();
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const answer = new Promise<T>((resolve, reject) => this.waiting.set(seq, { worker: w, resolve: resolve as (v: unknown) => void, reject }));
    w.postMessage({ ...task, seq } satisfies LibraryWorkerTask);
    return answer;
  }

  /** A subtitle file as a new item (subtitle-import.ts), parsed and stored off the event loop; `inProcess` does the same here when no worker can start. */
  importSubtitles<T>(name: string, text: SubtitleText, source: string, inProcess: () => T): Promise<T> {
    return this.run({ op: 'importSubtitles', name, text, source }, inProcess);
  }

  /** subtitles.open off the event loop (reading, repairing and joining 200,000 cues with their words), its cues as columns. */
  openSubtitles(id: string): Promise<SubtitleDocWire> {
    return this.run({ op: 'openSubtitles', id }, () => wireDoc(this.library.subtitles.open(id)));
  }

  /** subtitles.open as UTF-8 JSON written and checked on the worker (host mode's bridge sends it as it is); null when there is no worker. */
  openSubtitlesJson(id: string): Promise<Uint8Array | null> {
    return this.run<Uint8Array | null>({ op: 'openSubtitles', id, json: true }, () => null);
  }

  /** subtitles.run off the event loop: shift-all, sync, fix-all, Reset or an import onto the cues read and write up to 200,000 of them. */
  runSubtitles(id: string, version: number, edit: SubtitleCommand | ReplaceFromFile): Promise<EditResult> {
    return this.run({ op: 'runSubtitles', id, version, edit }, () => this.library.subtitles.run(id, version, withText(edit)));
  }

  /** subtitles.undo / redo off the event loop (undoing a Reset puts 200,000 cues back). */
  stepSubtitles(dir: 'undo' | 'redo', id: string, version: number): Promise<EditResult & { label: string | null }> {
    return this.run({ op: dir === 'undo' ? 'undoSubtitles' : 'redoSubtitles', id, version }, () => this.library.subtitles[dir](id, version));
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

/** replaceFrom's file read (where the edit runs): the command as the store performs it. */
export function withText(edit: SubtitleCommand | ReplaceFromFile): SubtitleCommand {
  if (!isReplaceFromFile(edit)) return edit;
  return { ...edit, args: { content: subtitleText(edit.args.text), name: edit.args.name } };
}

function isReplaceFromFile(edit: SubtitleCommand | ReplaceFromFile): edit is ReplaceFromFile {
  return edit.command === 'replaceFrom' && typeof (edit.args as { text?: unknown } | undefined)?.text === 'object';
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
