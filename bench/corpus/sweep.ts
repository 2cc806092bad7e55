/**
 * Sweeps PocketSphinx batch options on the TUNING half of the corpus (never
 * the held-out half): prints WER and RTF per setting.
 *   nice -n 15 npx tsx bench/corpus/sweep.ts '{"-maxhmmpf":"5000"}' '{"-lw":"8"}' ...
 * A setting's "graph" key is an ffmpeg audio filter graph for the decode step instead.
 * Env: CONDS=clean,mp3-24k (conditions), EVERY=2 (every nth clip), BEFORE=1 (old decode graph),
 * LIBRI=0870 (also tune on these LibriVox clips, which are otherwise all held out: name them in the report).
 */
import { SphinxRecognizer } from '../../src/engine/recognizer/index';
import { wordErrorRate, normalizeForWer } from '../../src/engine/text/wer';
import { buildCorpus } from './speech-corpus';
import { BEFORE_ARGS, transcribe } from './pipeline';

const conds = (process.env.CONDS ?? 'clean,mp3-24k,noise-10db').split(',');
const every = Number(process.env.EVERY ?? '2');
const split = process.env.SPLIT ?? 'tune';
const corpus = buildCorpus();
const clips = [...new Set(corpus.items.filter((i) => i.split === split && !i.keyterms).map((i) => `${i.voice}|${i.ref}`))].filter((_, n) => n % every === 0);
const libri = (process.env.LIBRI ?? '').split(',').filter(Boolean);
const tunedLibri = (file: string): boolean => libri.some((id) => file.includes(`librivox-${id}.`));
const items = corpus.items.filter(
  (i) =>
    !i.keyterms &&
    conds.includes(i.condition) &&
    ((i.split === split && clips.includes(`${i.voice}|${i.ref}`)) || (i.voice === 'librivox' && tunedLibri(i.file))),
);
const settings = process.argv.slice(2).map((a) => (a === 'before' ? BEFORE_ARGS : (JSON.parse(a) as Record<string, string>)));
if (!settings.length) settings.push({});
for (const { graph, ...args } of settings) {
  const rec = new SphinxRecognizer(process.env.REPLACE ? { preset: args, poolSize: 1 } : { args, poolSize: 1 });
  await rec.prewarm(1);
  const byCond = new Map<string, { err: number; n: number }>();
  let audio = 0;
  let secs = 0;
  let cpu = 0;
  for (const it of items) {
    const t = await transcribe(rec, it.file, { before: process.env.BEFORE === '1', filters: graph });
    const n = normalizeForWer(it.ref).length;
    const c = byCond.get(it.condition) ?? { err: 0, n: 0 };
    c.err += wordErrorRate(it.ref, t.text) * n;
    c.n += n;
    byCond.set(it.condition, c);
    audio += t.audioSeconds;
    secs += t.seconds;
    cpu += t.cpuSeconds;
    if (process.env.VERBOSE) console.log(`${it.condition} ${it.voice} | ${it.ref} | ${t.text}`);
  }
  rec.dispose();
  let e = 0;
  let n = 0;
  const parts = [...byCond].map(([k, v]) => {
    e += v.err;
    n += v.n;
    return `${k} ${((100 * v.err) / v.n).toFixed(1)}`;
  });
  console.log(
    `${JSON.stringify(args)}${graph !== undefined ? ` graph=${graph}` : ''}  WER ${((100 * e) / n).toFixed(1)}%  [${parts.join(', ')}]  RTF ${(secs / audio).toFixed(3)} CPU-RTF ${(cpu / audio).toFixed(3)}  (${items.length} clips)`,
  );
}
process.exit(0);
