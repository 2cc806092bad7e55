/**
 * The child process of the re-cluster power-loss test: opens the library on
 * `argv[2]` (a data folder) and re-clusters recording `argv[3]` as `argv[4]`
 * speakers ('auto': by similarity) with the app's own VoicesService, the way
 * `people.recluster` runs it. It prints where it is, so the parent can
 * SIGKILL it at a known point: "tick N" at every turn of the event loop (the
 * grouping yields between its 20 ms slices), "writing" just before the one
 * transaction that relabels the transcript, "sql …" as each of its
 * statements starts, "written" after it, then "done".
 * Stdout is a pipe, written synchronously on Linux: a line read is a point
 * reached.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createHostPlatform } from '../../../src/main/platform/host';
import { Library } from '../../../src/main/services/library/library';
import { EngineManager } from '../../../src/main/services/local-engine';
import { VoicesService } from '../../../src/main/services/voices/service';

const [dataDir, recordingId, asked] = process.argv.slice(2) as [string, string, string];
const say = (line: string) => process.stdout.write(`${line}\n`);

const lib = new Library(dataDir);
// The kept voiceprints are used: the engine is never started (it would be for a transcript without them).
const platform = createHostPlatform({ dataDir, version: 'test', keyFile: join(dataDir, '..', 'key') });
const voices = new VoicesService(lib, lib.voices, new EngineManager(platform.engine, dataDir));
// While the labels are written, each statement says itself as it starts ("sql UPDATE words", "sql DELETE FROM speakers", …).
let writing = false;
const probe = new Database(':memory:');
const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as { run: (...a: unknown[]) => unknown };
probe.close();
const run = statement.run;
statement.run = function (this: { source: string }, ...a: unknown[]) {
  if (writing) say(`sql ${this.source.trim().split(/\s+/).slice(0, 3).join(' ')}`);
  return run.apply(this, a);
};
const relabel = lib.voices.relabel.bind(lib.voices);
lib.voices.relabel = (...args) => {
  say('writing');
  writing = true;
  relabel(...args);
  writing = false;
  say('written');
};

let ticks = 0;
let finished = false;
const tick = () => {
  if (finished) return;
  say(`tick ${++ticks}`);
  setImmediate(tick);
};
say('ready');
setImmediate(tick);
voices.recluster(recordingId, asked === 'auto' ? null : Number(asked)).then(
  (note) => {
    finished = true;
    say(`done ${JSON.stringify(note)} ticks ${ticks}`);
    lib.close();
  },
  (e: unknown) => {
    finished = true;
    process.stderr.write(`re-cluster failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    lib.close();
    process.exitCode = 1;
  },
);
