/** The library's worker thread: heavy library work (a 200,000-cue subtitle import or commit) on its own SQLite connection, off main's event loop. */
import { parentPort, workerData } from 'node:worker_threads';
import { decodeBridgeRequest } from '../../../shared/bridge-request';
import { AppError } from '../../../shared/errors';
import { channels } from '../../../shared/ipc';
import { openDatabase, type LibraryChange } from './db';
import { Library } from './library';
import { importCuesAsItem } from './subtitle-import';
import type { Cue, Splice } from '../../../shared/subtitles/index';
import { PART, type DecodedInWorker, type LibraryWorkerPart, type LibraryWorkerReply, type LibraryWorkerTask } from './library-offload';

const { dataDir, dbFile } = workerData as { dataDir: string; dbFile: string };
const library = new Library(dataDir, openDatabase(dbFile));
// Changes made here reach main's change feed (so open views reload) through the reply.
let changes: LibraryChange[] = [];
library.onChange((c) => changes.push(c));

/** A commit's cues sent ahead in parts, by task. */
const parts = new Map<number, { remove: Cue[]; insert: Cue[] }>();
/** Splices of decoded bridge commits, kept for the commit main sends next (a few at most: an unclaimed one is dropped, and its commit then fails clearly). */
const parked = new Map<number, Splice>();
const PARKED_MAX = 4;
let nextParked = 0;

/** A bridge message read and checked here; a commit's big splice stays here, and main gets its input with empty lists. */
function decode(bytes: Uint8Array): DecodedInWorker {
  const decoded = decodeBridgeRequest(new TextDecoder().decode(bytes));
  if (!decoded.ok || decoded.channel !== 'subtitles.commit' || !decoded.check?.ok) return { decoded };
  const input = decoded.input as { splice: Splice };
  if (input.splice.remove.length + input.splice.insert.length <= PART) return { decoded };
  const key = ++nextParked;
  parked.set(key, input.splice);
  for (const old of parked.keys()) if (parked.size > PARKED_MAX) parked.delete(old);
  return { decoded: { ...decoded, input: { ...input, splice: { at: input.splice.at, remove: [], insert: [] } } }, parked: key };
}

function parkedSplice(key: number): Splice {
  const splice = parked.get(key);
  parked.delete(key);
  if (!splice) throw new AppError('conflict', 'This edit was lost on its way to the library. Close and reopen the Subtitles view, then make it again.');
  return splice;
}

function run(task: LibraryWorkerTask): unknown {
  switch (task.op) {
    case 'importSubtitles':
      return importCuesAsItem(library, task.name, task.content, task.source);
    case 'openSubtitles': {
      // Checked here with the channel's own output schema, so main's router need not (checked.ts).
      const out = channels['subtitles.open'].output.safeParse(library.subtitles.open(task.id));
      if (!out.success) throw new AppError('invalid_output', 'Verbatim produced an invalid answer for subtitles.open.');
      return task.json ? new TextEncoder().encode(JSON.stringify(out.data)) : out.data;
    }
    case 'commitSubtitles': {
      const sent = parts.get(task.seq);
      parts.delete(task.seq);
      if (task.parts && sent) task.splice = { at: task.splice.at, remove: sent.remove, insert: sent.insert };
      if (task.parked !== undefined) task.splice = parkedSplice(task.parked);
      return library.subtitles.commit(task.id, task.version, task.label, task.splice, task.doc);
    }
    case 'decodeRequest':
      return decode(task.bytes);
  }
}

/** Answers being sent in parts, by task. */
const sending = new Map<number, { cues: Cue[]; at: number; reply: LibraryWorkerReply }>();

function sendMore(seq: number): void {
  const s = sending.get(seq);
  if (!s) return;
  if (s.at >= s.cues.length) {
    sending.delete(seq);
    parentPort?.postMessage(s.reply);
    return;
  }
  parentPort?.postMessage({ seq, op: 'part', cues: s.cues.slice(s.at, s.at + PART) } satisfies LibraryWorkerReply);
  s.at += PART;
}

parentPort?.on('message', (task: LibraryWorkerTask | LibraryWorkerPart | { seq: number; op: 'more' }) => {
  if (task.op === 'more') return sendMore(task.seq);
  if (task.op === 'part') {
    const into = parts.get(task.seq) ?? { remove: [], insert: [] };
    parts.set(task.seq, into);
    for (const c of task.cues) into[task.key].push(c);
    return;
  }
  changes = [];
  let reply: LibraryWorkerReply;
  try {
    const value = run(task);
    if (value instanceof Uint8Array)
      return parentPort?.postMessage({ seq: task.seq, ok: true, value, changes } satisfies LibraryWorkerReply, [value.buffer as ArrayBuffer]);
    const cues = task.op === 'openSubtitles' ? (value as { cues: Cue[] }).cues : null;
    reply = cues ? { seq: task.seq, ok: true, value: { ...(value as object), cues: [] }, parts: true, changes } : { seq: task.seq, ok: true, value, changes };
    // Main reads the cues a part at a time and asks for the next ('more'): queued parts would all be read in one turn of its event loop.
    if (cues && cues.length > PART) {
      sending.set(task.seq, { cues, at: 0, reply });
      return sendMore(task.seq);
    }
    if (cues) reply = { ...reply, parts: false, value };
  } catch (e) {
    const error = e instanceof AppError ? e.toInfo() : { code: 'internal' as const, message: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    reply = { seq: task.seq, ok: false, error, changes };
  }
  parentPort?.postMessage(reply);
});
