/**
 * Full-text search over 10,000 transcripts of ~2,000 words each (20 M words):
 * query latency p50/p95 (goal p95 ≤ 30 ms) for rare, medium and common words,
 * prefixes and phrases. The fixture is built once and kept in the temp folder
 * (delete it or set FTS_REBUILD=1 to rebuild).
 * `npx tsx bench/app-fts.ts [transcripts] [wordsEach]`
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Library } from '../src/main/services/library/library';
import { figure } from './_figure';

const count = Number(process.argv[2] ?? 10_000);
const wordsEach = Number(process.argv[3] ?? 2_000);
const dir = join(tmpdir(), `verbatim-bench-fts-${count}x${wordsEach}`);
if (process.env.FTS_REBUILD) rmSync(dir, { recursive: true, force: true });
const fresh = !existsSync(join(dir, 'library.sqlite'));
mkdirSync(dir, { recursive: true });
const lib = new Library(dir);

// A Zipf-like vocabulary: a few very common words, a long tail of rare ones.
const syllables = ['ka', 'lo', 'mi', 'ren', 'tu', 'sa', 'vor', 'ne', 'qui', 'dal', 'po', 'zen', 'ar', 'bel', 'cro', 'fin'];
const vocab: string[] = [];
for (let i = 0; vocab.length < 20_000; i++) {
  let w = '';
  let x = i;
  do {
    w += syllables[x % syllables.length];
    x = Math.floor(x / syllables.length);
  } while (x > 0);
  vocab.push(w);
}
const common = ['the', 'and', 'to', 'of', 'a', 'in', 'is', 'that', 'we', 'it'];
let seed = 12345;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const zipf = () => vocab[Math.min(vocab.length - 1, Math.floor(Math.exp(rand() * Math.log(vocab.length))) - 1)]!;

if (fresh) {
  const t0 = performance.now();
  const batch = 200;
  for (let b = 0; b < count; b += batch) {
    lib.transaction(() => {
      for (let i = b; i < Math.min(count, b + batch); i++) {
        const words = [];
        let t = 0;
        for (let k = 0; k < wordsEach; k++) {
          const text = (rand() < 0.35 ? common[Math.floor(rand() * common.length)]! : zipf()) + (k % 14 === 13 ? '.' : '');
          words.push({ text, start: t, end: t + 250, confidence: 0.9, speaker: null });
          t += 320;
        }
        const { transcriptId } = lib.recordings.add({
          title: `Recording ${i}`,
          source: `r${i}.wav`,
          sourceKind: 'file',
          sizeBytes: 1,
          region: 'local',
          baseUrl: null,
          options: {},
        });
        lib.transcripts.complete(transcriptId, {
          remoteId: null,
          text: words.map((w) => w.text).join(' '),
          words,
          sentences: null,
          paragraphs: null,
          confidence: 0.9,
          language: 'en',
          model: 'bench',
          durationMs: t,
        });
      }
    });
    if ((b / batch) % 10 === 0) process.stderr.write(`\rbuilding: ${b + batch}/${count}`);
  }
  lib.search.optimize();
  process.stderr.write(`\rbuilt ${count} transcripts × ${wordsEach} words in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
}

const sentences = lib.search.sentenceCount();
const queries: { kind: string; q: string }[] = [];
for (let i = 0; i < 60; i++) queries.push({ kind: 'rare word', q: vocab[5000 + Math.floor(rand() * 15000)]! });
for (let i = 0; i < 60; i++) queries.push({ kind: 'medium word', q: vocab[50 + Math.floor(rand() * 500)]! });
for (let i = 0; i < 30; i++) queries.push({ kind: 'two words', q: `${vocab[100 + Math.floor(rand() * 2000)]} ${vocab[100 + Math.floor(rand() * 2000)]}` });
for (let i = 0; i < 30; i++) queries.push({ kind: 'prefix', q: vocab[300 + Math.floor(rand() * 3000)]!.slice(0, 5) });
for (let i = 0; i < 20; i++) queries.push({ kind: 'phrase', q: `"the ${vocab[Math.floor(rand() * 50)]}"` });
for (let i = 0; i < 10; i++) queries.push({ kind: 'top-10 word', q: vocab[Math.floor(rand() * 10)]! });

lib.search.search('warmup');
const by = new Map<string, number[]>();
const all: number[] = [];
for (const { kind, q } of queries) {
  const t0 = performance.now();
  lib.search.search(q, { limit: 50 });
  const ms = performance.now() - t0;
  all.push(ms);
  by.set(kind, [...(by.get(kind) ?? []), ms]);
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
console.log(`app-fts: ${count} transcripts × ${wordsEach} words (${sentences} indexed sentences), ${queries.length} queries, top 50 hits with snippets`);
console.log(`  all queries: p50 ${pct(all, 50).toFixed(1)} ms, p95 ${pct(all, 95).toFixed(1)} ms, max ${Math.max(...all).toFixed(1)} ms (goal p95 ≤ 30 ms)`);
for (const [kind, xs] of by) console.log(`  ${kind.padEnd(12)} p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms`);
figure('search, p50', pct(all, 50), 'ms');
figure('search, p95', pct(all, 95), 'ms');
const listTimes: number[] = [];
for (let i = 0; i < 40; i++) {
  const t0 = performance.now();
  lib.recordings.list({
    sort: (['created', 'title', 'duration', 'updated'] as const)[i % 4],
    order: i % 2 ? 'asc' : 'desc',
    offset: (i * 237) % count,
    limit: 100,
  });
  listTimes.push(performance.now() - t0);
}
console.log(`  library list page (100 of ${count}, 4 sorts, random offsets): p50 ${pct(listTimes, 50).toFixed(1)} ms, p95 ${pct(listTimes, 95).toFixed(1)} ms`);
figure('library list page, p95', pct(listTimes, 95), 'ms');
lib.close();
