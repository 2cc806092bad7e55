/**
 * The library at real size: 1,000 two-hour meetings (18,000 words each,
 * three speakers), generated once into the temp folder (or REAL_SIZE_CACHE) and reused
 * while the generator is unchanged (REAL_SIZE_REBUILD=1 makes it again): ten meetings are transcribed into the library the app's
 * way, the other 990 are copies of them made with bulk SQL (rows, words and
 * search sentences), so building takes minutes, not hours. A name sits in
 * four of the ten, so in 400 meetings. Then, each with its time and the worst
 * main-thread turn (the longest gap a setImmediate probe saw; goal: every
 * turn ≤ 100 ms): Fix everywhere's find, the fix over 400 meetings, its Undo,
 * Make a backup and restoring it into an empty library.
 *
 * `npm run bench -- real-size [meetings] [wordsEach]` (defaults 1000 18000).
 */
import { randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Library } from '../src/main/services/library/library';
import { VocabularyService } from '../src/main/services/vocabulary/service';
import { defaultSettings } from '../src/shared/settings';
import { addCompleted } from '../tests/support/library';
import { keptPrintsOnly, reclusterMeeting } from './_recluster-meeting';
import { figure } from './_figure';

const meetings = Number(process.argv[2] ?? 1000);
const wordsEach = Number(process.argv[3] ?? 18_000);
const TEMPLATES = 10;
/** Templates that say the name: 4 of 10, so 400 of 1,000 meetings. */
const NAMED = 4;
const GOAL_MS = 100;
const cacheDir = process.env.REAL_SIZE_CACHE ?? tmpdir();
const prefix = `verbatim-bench-real-size-${meetings}x${wordsEach}`;

const vocabularyWords =
  'the we and to of a budget quarter launch customer design review schedule research meeting product market team plan next week numbers think'.split(' ');
let seed = 47;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

function build(): void {
  const t0 = performance.now();
  mkdirSync(dataDir, { recursive: true });
  const lib = new Library(dataDir);
  const templates: { recordingId: string; transcriptId: string }[] = [];
  for (let k = 0; k < TEMPLATES; k++) {
    const words = [];
    let t = 0;
    for (let i = 0; i < wordsEach; i++) {
      const named = k < NAMED && i % 400 === 17;
      const text = named ? 'Phebe,' : vocabularyWords[Math.floor(rand() * vocabularyWords.length)]! + (i % 13 === 12 ? '.' : '');
      words.push({ text, start: t, end: t + 280, confidence: 0.9, speaker: ['A', 'B', 'C'][Math.floor(i / 90) % 3]! });
      t += 400;
    }
    templates.push(addCompleted(lib, `Meeting template ${k}`, words, { durationMs: t + 500 }));
  }
  lib.close();
  // The copies: the same rows under new ids, in bulk (the sentences' trigger fills the search index).
  const db = new BetterSqlite3(join(dataDir, 'library.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const cols = (table: string) => (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name);
  const copyOf = (table: string, replace: Record<string, string>, skip: string[] = []) => {
    const list = cols(table).filter((c) => !skip.includes(c));
    const select = list.map((c) => (c in replace ? replace[c] : c)).join(', ');
    return `INSERT INTO ${table} (${list.join(', ')}) SELECT ${select} FROM ${table}`;
  };
  const recording = copyOf('recordings', { id: '@rid', title: '@title' }, ['original_path']);
  const transcript = copyOf('transcripts', { id: '@tid', recording_id: '@rid' });
  const words = copyOf('words', { transcript_id: '@tid' });
  const sentences = copyOf('sentences', { transcript_id: '@tid' }, ['id']);
  const where = {
    recordings: ' WHERE id = @from',
    transcripts: ' WHERE id = @fromT',
    words: ' WHERE transcript_id = @fromT',
    sentences: ' WHERE transcript_id = @fromT ORDER BY id',
  };
  const stmts = [
    db.prepare(recording + where.recordings),
    db.prepare(transcript + where.transcripts),
    db.prepare(words + where.words),
    db.prepare(sentences + where.sentences),
  ];
  const BATCH = 50;
  for (let i = TEMPLATES; i < meetings; i += BATCH) {
    db.transaction(() => {
      for (let j = i; j < Math.min(meetings, i + BATCH); j++) {
        const tpl = templates[j % TEMPLATES]!;
        const args = { rid: randomUUID(), tid: randomUUID(), title: `Meeting ${j}`, from: tpl.recordingId, fromT: tpl.transcriptId };
        for (const s of stmts) s.run(args);
      }
    })();
    process.stderr.write(`\rbuilding: ${Math.min(meetings, i + BATCH)}/${meetings} meetings`);
  }
  db.close();
  process.stderr.write(`\rbuilt ${meetings} meetings × ${wordsEach} words in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
}

/**
 * How long `work` took, and its worst main-thread turn: the longest gap
 * between two turns of a setImmediate probe, as wall time and as the CPU time
 * the process spent in it (on a loaded machine the wall gap also holds time
 * the process waited for a core; the CPU figure is the work itself).
 */
async function measure<T>(name: string, label: string, work: () => Promise<T>, describe: (v: T) => string): Promise<T> {
  let worst = 0;
  let worstCpu = 0;
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let on = true;
  const sample = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    worst = Math.max(worst, now - last);
    worstCpu = Math.max(worstCpu, (cpu.user + cpu.system) / 1000);
    last = now;
    lastCpu = process.cpuUsage();
  };
  const probe = () => {
    sample();
    if (on) setImmediate(probe);
  };
  setImmediate(probe);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const value = await work();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  // The last stretch (after the last probe) counts too.
  sample();
  on = false;
  figure(`${name}: time`, ms, 'ms');
  figure(`${name}: CPU`, (cpu.user + cpu.system) / 1000, 'ms');
  figure(`${name}: worst turn CPU`, worstCpu, 'ms');
  figure(`${name}: worst turn`, worst, 'ms');
  console.log(
    `${label.padEnd(34)} ${(ms / 1000).toFixed(2).padStart(6)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s)   worst turn ${worst.toFixed(0).padStart(4)} ms (CPU ${worstCpu.toFixed(0).padStart(3)} ms) ${worstCpu <= GOAL_MS ? 'within' : 'OVER'} the ${GOAL_MS} ms goal   ${describe(value)}`,
  );
  return value;
}

// The built library is kept and reused while the generator is the same: its folder is keyed by a hash of this
// file, the library's schema (migrations) and the test helper that transcribes the templates. A build that did
// not finish (no marker) is made again; builds of an older generator beside it are removed.
const generator = createHash('sha256');
for (const f of ['bench/real-size.ts', 'src/main/services/library/migrations.ts', 'tests/support/library.ts'])
  generator.update(readFileSync(join(import.meta.dirname, '..', f)));
const root = join(cacheDir, `${prefix}-${generator.digest('hex').slice(0, 12)}`);
const dataDir = join(root, 'library');
const marker = join(root, 'built');
for (const old of readdirSync(cacheDir).filter((d) => d.startsWith(prefix) && join(cacheDir, d) !== root))
  rmSync(join(cacheDir, old), { recursive: true, force: true });
if (process.env.REAL_SIZE_REBUILD || !existsSync(marker)) {
  rmSync(root, { recursive: true, force: true });
  build();
  writeFileSync(marker, `${new Date().toISOString()}\n`);
} else console.log(`(the library built earlier in ${root} is reused)`);
const lib = new Library(dataDir);
const vocabulary = new VocabularyService(lib, { get: () => defaultSettings, set: () => undefined });
console.log(
  `library: ${lib.recordings.list({ limit: 1 }).total} meetings × ${wordsEach} words; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
);

const found = await measure(
  'fix everywhere: find',
  'Fix everywhere: find',
  () => vocabulary.find('Phebe', 500),
  (r) => `${r.total} transcripts`,
);
const fixed = await measure(
  'fix everywhere: fix',
  `Fix everywhere over ${found.matches.length} transcripts`,
  () =>
    vocabulary.apply(
      'Phebe',
      'Phoebe',
      found.matches.map((m) => m.recordingId),
    ),
  (r) => `${r.words} words in ${r.recordings} transcripts`,
);
await measure(
  'fix everywhere: undo',
  'its Undo',
  () => vocabulary.undo(fixed.batchId),
  (r) => `${r.words} words back in ${r.recordings} transcripts`,
);

// Re-cluster: a two-hour meeting's 2,000 turns from kept voiceprints (192 values each), Auto and as 4 speakers (bench/recluster.ts has 300-2,000).
// Its own seed, so a run on a reused library re-clusters the same prints as the run that built it.
seed = 4747;
const longMeeting = reclusterMeeting(lib, 2000, 192, rand);
const voices = keptPrintsOnly(lib);
for (const asked of [null, 4] as const)
  await measure(
    `re-cluster 2,000 turns, ${asked === null ? 'auto' : `${asked} speakers`}`,
    `Re-cluster 2,000 turns (${asked === null ? 'Auto' : `as ${asked}`})`,
    () => voices.recluster(longMeeting, asked),
    (n) => `${n.speakers} speakers`,
  );
lib.recordings.delete([longMeeting]);

const backupDir = join(root, `backup-${Date.now()}`);
await measure(
  'backup',
  'Make a backup',
  () => lib.backup.exportAll(backupDir),
  (r) => `${r.items} items`,
);
const restoreDir = join(root, `restored-${Date.now()}`);
const restored = new Library(restoreDir);
await measure(
  'restore',
  'Restore it into an empty library',
  () => restored.backup.importAll(backupDir),
  (r) => `${r.imported} items, ${r.notes.length} notes`,
);
restored.close();
lib.close();
rmSync(backupDir, { recursive: true, force: true });
rmSync(restoreDir, { recursive: true, force: true });
