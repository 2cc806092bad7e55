/** The library's worker thread: heavy library work (a 200,000-cue subtitle import or commit) on its own SQLite connection, off main's event loop. */
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../../shared/errors';
import { openDatabase } from './db';
import { Library } from './library';
import { importCuesAsItem } from './subtitle-import';
import type { Cue } from '../../../shared/subtitles/index';
import type { LibraryWorkerPart, LibraryWorkerReply, LibraryWorkerTask } from './library-offload';

const { dataDir, dbFile } = workerData as { dataDir: string; dbFile: string };
const library = new Library(dataDir, openDatabase(dbFile));
// Changes made here reach main's change feed (so open views reload) through the reply.
let changes: LibraryWorkerReply['changes'] = [];
library.onChange((c) => changes.push(c));

/** A commit's cues sent ahead in parts, by task. */
const parts = new Map<number, { remove: Cue[]; insert: Cue[] }>();

function run(task: LibraryWorkerTask): unknown {
  switch (task.op) {
    case 'importSubtitles':
      return importCuesAsItem(library, task.name, task.content, task.source);
    case 'commitSubtitles': {
      const sent = parts.get(task.seq);
      parts.delete(task.seq);
      if (task.parts && sent) task.splice = { at: task.splice.at, remove: sent.remove, insert: sent.insert };
      return library.subtitles.commit(task.id, task.version, task.label, task.splice, task.doc);
    }
  }
}

parentPort?.on('message', (task: LibraryWorkerTask | LibraryWorkerPart) => {
  if (task.op === 'part') {
    const into = parts.get(task.seq) ?? { remove: [], insert: [] };
    parts.set(task.seq, into);
    for (const c of task.cues) into[task.key].push(c);
    return;
  }
  changes = [];
  let reply: LibraryWorkerReply;
  try {
    reply = { seq: task.seq, ok: true, value: run(task), changes };
  } catch (e) {
    const error = e instanceof AppError ? e.toInfo() : { code: 'internal' as const, message: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    reply = { seq: task.seq, ok: false, error, changes };
  }
  parentPort?.postMessage(reply);
});
