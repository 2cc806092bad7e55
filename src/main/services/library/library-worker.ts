/** The library's worker thread: heavy library work (a 200,000-cue subtitle import, open or edit) on its own SQLite connection, off main's event loop. */
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../../shared/errors';
import { wireDoc } from '../../../shared/subtitles/cue-columns';
import { subtitleDocWireSchema } from '../../../shared/subtitles/wire';
import { openDatabase, type LibraryChange } from './db';
import { Library } from './library';
import { importCuesAsItem } from './subtitle-import';
import { subtitleText } from './subtitle-text';
import { withText, type LibraryWorkerReply, type LibraryWorkerTask } from './library-offload';

const { dataDir, dbFile } = workerData as { dataDir: string; dbFile: string };
const library = new Library(dataDir, openDatabase(dbFile));
// Changes made here reach main's change feed (so open views reload) through the reply.
let changes: LibraryChange[] = [];
library.onChange((c) => changes.push(c));

function run(task: LibraryWorkerTask): unknown {
  switch (task.op) {
    case 'importSubtitles':
      return importCuesAsItem(library, task.name, subtitleText(task.text), task.source);
    case 'openSubtitles': {
      const doc = wireDoc(library.subtitles.open(task.id));
      if (!task.json) return doc;
      // Checked here with the channel's own output schema, so main's router need not (ipc/open-json.ts).
      const out = subtitleDocWireSchema.safeParse(doc);
      if (!out.success) throw new AppError('invalid_output', 'Verbatim produced an invalid answer for subtitles.open.');
      return new TextEncoder().encode(JSON.stringify(out.data));
    }
    case 'runSubtitles':
      return library.subtitles.run(task.id, task.version, withText(task.edit));
    case 'undoSubtitles':
      return library.subtitles.undo(task.id, task.version);
    case 'redoSubtitles':
      return library.subtitles.redo(task.id, task.version);
  }
}

parentPort?.on('message', (task: LibraryWorkerTask) => {
  changes = [];
  let reply: LibraryWorkerReply;
  try {
    const value = run(task);
    // JSON bytes are handed over, not copied.
    if (value instanceof Uint8Array)
      return parentPort?.postMessage({ seq: task.seq, ok: true, value, changes } satisfies LibraryWorkerReply, [value.buffer as ArrayBuffer]);
    reply = { seq: task.seq, ok: true, value, changes };
  } catch (e) {
    const error = e instanceof AppError ? e.toInfo() : { code: 'internal' as const, message: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    reply = { seq: task.seq, ok: false, error, changes };
  }
  parentPort?.postMessage(reply);
});
