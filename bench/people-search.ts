/**
 * Library search narrowed to one person ("what did Dana say about …") beside the same search over everyone:
 * `transcripts` recordings of `wordsEach` words, two speakers taking turns every ~20 words, Dana recognised as
 * A in every one (the worst case: every transcript is hers, so each candidate's speaker is looked up). Prints
 * p50/p95 for rare, medium and common words and the ratio narrowed/everyone. The fixture is built fresh each run.
 * `npx tsx bench/people-search.ts [transcripts] [wordsEach]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Library } from '../src/main/services/library/library';
import { addCompleted } from '../tests/support/library';
import { figure } from './_figure';

const count = Number(process.argv[2] ?? 1_000);
const wordsEach = Number(process.argv[3] ?? 2_000);
const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-people-'));
const lib = new Library(dir);

const vocab = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36)}`);
const common = ['the', 'and', 'budget', 'we', 'it'];
let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const zipf = () => vocab[Math.min(vocab.length - 1, Math.floor(Math.exp(rand() * Math.log(vocab.length))) - 1)]!;

const t0 = performance.now();
let dana = '';
for (let b = 0; b < count; b += 100) {
  lib.transaction(() => {
    for (let i = b; i < Math.min(count, b + 100); i++) {
      const words = [];
      let t = 0;
      for (let k = 0; k < wordsEach; k++) {
        const text = (rand() < 0.3 ? common[Math.floor(rand() * common.length)]! : zipf()) + (k % 10 === 9 ? '.' : '');
        words.push({ text, start: t, end: t + 250, confidence: 0.9, speaker: Math.floor(k / 20) % 2 ? 'B' : 'A' });
        t += 320;
      }
      const ids = addCompleted(lib, `R${i}`, words, { language: 'en', model: 'bench', durationMs: t });
      if (!dana) dana = lib.voices.people.remember(ids.recordingId, 'Dana', 'bench', [{ vector: Float32Array.of(1, 0), ms: 1000 }], 'A');
      lib.voices.people.setMatch(ids.recordingId, ids.transcriptId, 'A', dana, 0.9);
    }
  });
}
lib.search.optimize();
console.log(`people-search: built ${count} transcripts × ${wordsEach} words in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

const queries: { kind: string; q: string }[] = [];
for (let i = 0; i < 30; i++) queries.push({ kind: 'rare word', q: vocab[2000 + Math.floor(rand() * 3000)]! });
for (let i = 0; i < 30; i++) queries.push({ kind: 'medium word', q: vocab[20 + Math.floor(rand() * 200)]! });
for (let i = 0; i < 10; i++) queries.push({ kind: 'common word', q: common[i % common.length]! });
lib.search.search('warmup');
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const time = (q: string, voiceId?: string) => {
  const s = performance.now();
  lib.search.search(q, { limit: 50, voiceId });
  return performance.now() - s;
};
for (const kind of ['rare word', 'medium word', 'common word']) {
  const qs = queries.filter((x) => x.kind === kind).map((x) => x.q);
  const everyone = qs.map((q) => time(q));
  const narrowed = qs.map((q) => time(q, dana));
  console.log(
    `  ${kind.padEnd(12)} everyone p50 ${pct(everyone, 50).toFixed(1)} ms p95 ${pct(everyone, 95).toFixed(1)} ms · Dana only p50 ${pct(narrowed, 50).toFixed(1)} ms p95 ${pct(narrowed, 95).toFixed(1)} ms · ratio p50 ${(pct(narrowed, 50) / pct(everyone, 50)).toFixed(2)}`,
  );
  figure(`${kind}, everyone, p95`, pct(everyone, 95), 'ms');
  figure(`${kind}, one person, p95`, pct(narrowed, 95), 'ms');
}
lib.close();
rmSync(dir, { recursive: true, force: true });
