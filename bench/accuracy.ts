/**
 * Word error rate of the local recognizer on the HELD-OUT half of the
 * accuracy corpus (speakers the tuning never heard: flite rms and slt,
 * festival slt-hts and ked, the LibriVox reader), per voice and per
 * condition, before issue 16's changes and now, with real-time factors;
 * then the effect of keyterms on sentences that contain them.
 *   npm run bench -- accuracy    (EVERY=n takes every nth synthetic clip; CONDS=clean,mp3-24k limits the conditions)
 * BEFORE=graph runs the "before" pass through today's decode step (noise suppression included), so it measures the decoder settings alone;
 * SKIP_LIBRI=0870,0890 leaves out LibriVox clips a sweep tuned on (bench/corpus/sweep.ts LIBRI=).
 * --model DIR (an installed model's folder, with its verbatim-model.json) runs the held-out corpus through
 * that local model instead, printing WER and RTF by condition beside PocketSphinx (the CPU RTF of a local model
 * counts its native worker's CPU time too).
 * The corpus is generated on first use (bench/corpus/speech-corpus.ts).
 */
import { basename, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SphinxRecognizer, type Recognizer } from '../src/engine/recognizer/index';
import { ModelRegistry } from '../src/engine/recognizer/sherpa/registry';
import { readFileSync } from 'node:fs';
import { keytermWarning } from '../src/engine/recognizer/keyterms';
import { normalizeForWer, wordErrorRate } from '../src/engine/text/wer';
import { BEFORE_ARGS, transcribe } from './corpus/pipeline';
import { buildCorpus, CONDITIONS, type Item } from './corpus/speech-corpus';
import { figure } from './_figure';

interface Tally {
  err: number;
  words: number;
}
const add = (m: Map<string, Tally>, k: string, err: number, words: number): void => {
  const t = m.get(k) ?? { err: 0, words: 0 };
  t.err += err;
  t.words += words;
  m.set(k, t);
};
const pct = (t: Tally | undefined): string => (t && t.words ? ((100 * t.err) / t.words).toFixed(1) : '-');

interface Pass {
  byVoice: Map<string, Tally>;
  byCond: Map<string, Tally>;
  byCell: Map<string, Tally>;
  audio: number;
  wall: number;
  cpu: number;
  texts: Map<Item, string>;
}

/** CPU seconds of a process from /proc (the native worker's, for local models); 0 where unreadable. */
function cpuOf(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

async function run(items: Item[], before: boolean, local?: { rec: Recognizer; worker: () => number | undefined }): Promise<Pass> {
  const rec = local?.rec ?? new SphinxRecognizer(before ? { preset: BEFORE_ARGS, poolSize: 1 } : { poolSize: 1 });
  await rec.prewarm?.(1);
  const p: Pass = { byVoice: new Map(), byCond: new Map(), byCell: new Map(), audio: 0, wall: 0, cpu: 0, texts: new Map() };
  for (const it of items) {
    const t = await transcribe(rec, it.file, { before: before && process.env.BEFORE !== 'graph' });
    const n = normalizeForWer(it.ref).length;
    const e = wordErrorRate(it.ref, t.text) * n;
    const group = it.voice === 'librivox' ? 'librivox' : 'synthetic';
    add(p.byVoice, it.voice, e, n);
    add(p.byCond, it.condition, e, n);
    add(p.byCell, `${group}|${it.condition}`, e, n);
    add(p.byCell, `${group}|all`, e, n);
    p.audio += t.audioSeconds;
    p.wall += t.seconds;
    p.cpu += t.cpuSeconds;
    // The worker's CPU time: read once per item (it may have been restarted, so count each pid's time as it grows).
    if (local) p.cpu += workerCpu(local.worker());
    p.texts.set(it, t.text);
  }
  if (!local) rec.dispose();
  return p;
}

let lastPid: number | undefined;
let lastCpu = 0;
/** CPU seconds the worker used since the last call. */
function workerCpu(pid: number | undefined): number {
  if (pid !== lastPid) {
    lastPid = pid;
    lastCpu = 0;
  }
  const now = cpuOf(pid);
  const d = Math.max(0, now - lastCpu);
  lastCpu = now;
  return d;
}

/** --model DIR: the held-out items through PocketSphinx and through the local model, by condition. */
async function compareModel(items: Item[], dir: string): Promise<void> {
  const registry = new ModelRegistry({ dir: dirname(dir), idleMs: 600_000 });
  const id = basename(dir);
  const manifest = await registry.find(id);
  if (!manifest) throw new Error(`${dir} holds no verbatim-model.json of a speech model (install it with the app, or write one)`);
  const rec = await registry.recognizer(id, manifest.family === 'whisper' ? 'en' : undefined);
  const t0 = performance.now();
  await rec.prewarm();
  figure('model load', (performance.now() - t0) / 1000, 's');
  console.log(`${id} (${manifest.family}) loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const ps = await run(items, false);
  const model = await run(items, false, { rec, worker: () => registry.child.pid });
  registry.dispose();
  for (const [k, name] of [
    ['synthetic|all', 'synthetic WER'],
    ['librivox|all', 'LibriVox WER'],
  ] as const) {
    const t = model.byCell.get(k);
    if (t?.words) figure(name, (100 * t.err) / t.words, '%');
  }
  figure('RTF', model.wall / model.audio, '×');
  figure('CPU RTF', model.cpu / model.audio, '×');
  console.log(`\nWER % by condition (held out)   PocketSphinx   ${id}`);
  for (const c of [...CONDITIONS, 'all']) {
    for (const g of ['synthetic', 'librivox']) {
      const k = `${g}|${c}`;
      if (!ps.byCell.has(k)) continue;
      console.log(`  ${`${g} ${c}`.padEnd(30)}${pct(ps.byCell.get(k)).padStart(12)}${pct(model.byCell.get(k)).padStart(12)}`);
    }
  }
  console.log(`RTF (wall incl. ffmpeg and VAD): PocketSphinx ${(ps.wall / ps.audio).toFixed(3)}, ${id} ${(model.wall / model.audio).toFixed(3)}`);
  console.log(
    `CPU RTF (decoder + VAD, the model's worker included): PocketSphinx ${(ps.cpu / ps.audio).toFixed(3)}, ${id} ${(model.cpu / model.audio).toFixed(3)}`,
  );
}

async function main(): Promise<void> {
  const corpus = buildCorpus((s) => console.log(s));
  for (const s of corpus.skipped) console.log(`skipped ${s}`);
  const every = Number(process.env.EVERY ?? '1');
  const clipKeys = [...new Set(corpus.items.filter((i) => i.split === 'heldout' && !i.keyterms).map((i) => `${i.voice}|${i.ref}`))];
  const chosen = new Set(clipKeys.filter((_, n) => n % every === 0 || clipKeys[n]?.startsWith('librivox')));
  const conds = process.env.CONDS ? process.env.CONDS.split(',') : [...CONDITIONS];
  const skipLibri = (process.env.SKIP_LIBRI ?? '').split(',').filter(Boolean);
  const tuned = (file: string): boolean => skipLibri.some((id) => file.includes(`librivox-${id}.`));
  const items = corpus.items.filter(
    (i) => i.split === 'heldout' && !i.keyterms && chosen.has(`${i.voice}|${i.ref}`) && conds.includes(i.condition) && !tuned(i.file),
  );
  console.log(
    `held-out half: ${chosen.size} clips × ${conds.length} conditions = ${items.length} transcriptions per pass${every > 1 ? ` (every ${every}th synthetic clip)` : ''}`,
  );

  const { values } = parseArgs({ options: { model: { type: 'string' } }, strict: false });
  if (typeof values.model === 'string') return compareModel(items, resolve(values.model));

  const before = await run(items, true);
  const after = await run(items, false);

  const voices = [...new Set(items.map((i) => i.voice))];
  console.log('\nWER % by voice (held out)        before   after');
  for (const v of voices) console.log(`  ${v.padEnd(30)}${pct(before.byVoice.get(v)).padStart(7)}${pct(after.byVoice.get(v)).padStart(8)}`);
  console.log('\nWER % by condition         synthetic before/after   LibriVox before/after');
  for (const c of CONDITIONS) {
    console.log(
      `  ${c.padEnd(26)}${pct(before.byCell.get(`synthetic|${c}`)).padStart(9)} /${pct(after.byCell.get(`synthetic|${c}`)).padStart(6)}${pct(before.byCell.get(`librivox|${c}`)).padStart(14)} /${pct(after.byCell.get(`librivox|${c}`)).padStart(6)}`,
    );
  }
  const rel = (k: string): string => {
    const b = before.byCell.get(k);
    const a = after.byCell.get(k);
    return b && a && b.err ? `${(((a.err / a.words - b.err / b.words) / (b.err / b.words)) * 100).toFixed(0)}%` : '-';
  };
  console.log(
    `\nLibriVox held-out WER: ${pct(before.byCell.get('librivox|clean'))}% → ${pct(after.byCell.get('librivox|clean'))}% clean (goal ≤ 22%); all conditions ${pct(before.byCell.get('librivox|all'))}% → ${pct(after.byCell.get('librivox|all'))}%`,
  );
  console.log(
    `Synthetic held-out WER: ${pct(before.byCell.get('synthetic|all'))}% → ${pct(after.byCell.get('synthetic|all'))}% (${rel('synthetic|all')} relative; goal ≤ −30%)`,
  );
  const worse = CONDITIONS.flatMap((c) =>
    ['synthetic', 'librivox']
      .filter((g) => {
        const b = before.byCell.get(`${g}|${c}`);
        const a = after.byCell.get(`${g}|${c}`);
        return b && a && a.err / a.words > b.err / b.words + 1e-9;
      })
      .map((g) => `${g} ${c}`),
  );
  const werOf = (t: Tally | undefined) => (t && t.words ? (100 * t.err) / t.words : NaN);
  figure('LibriVox WER, clean', werOf(after.byCell.get('librivox|clean')), '%');
  figure('LibriVox WER, all conditions', werOf(after.byCell.get('librivox|all')), '%');
  figure('synthetic WER, all conditions', werOf(after.byCell.get('synthetic|all')), '%');
  figure('conditions worse than before', worse.length, 'conditions');
  figure('RTF', after.wall / after.audio, '×');
  figure('CPU RTF', after.cpu / after.audio, '×');
  console.log(`Conditions worse than before: ${worse.length ? worse.join(', ') : 'none'}`);
  console.log(
    `RTF (one decoder, wall incl. ffmpeg and VAD): before ${(before.wall / before.audio).toFixed(3)}, after ${(after.wall / after.audio).toFixed(3)} (goal ≤ 0.25)`,
  );
  console.log(
    `CPU RTF (this process: decoder + VAD; ffmpeg not counted): before ${(before.cpu / before.audio).toFixed(3)}, after ${(after.cpu / after.audio).toFixed(3)}; ratio ${(after.cpu / before.cpu).toFixed(2)}×`,
  );

  const target = 'please call me back when you get this message';
  console.log(`\n"${target}" as 24 kbps MP3:`);
  for (const it of items.filter((i) => i.ref === target && i.condition === 'mp3-24k')) {
    console.log(`  ${it.voice.padEnd(18)} before: ${before.texts.get(it) ?? ''}\n  ${''.padEnd(18)} after:  ${after.texts.get(it) ?? ''}`);
  }

  const kt = corpus.items.filter((i) => i.keyterms).filter((_, n) => n % every === 0);
  if (kt.length) {
    const rec = new SphinxRecognizer({ poolSize: 1 });
    const plain: Tally = { err: 0, words: 0 };
    const boosted: Tally = { err: 0, words: 0 };
    const termHits = { plain: 0, boosted: 0, total: 0 };
    console.log(`\nKeyterms (${kt.length} held-out sentences naming a rare word):`);
    for (const it of kt) {
      const terms = it.keyterms ?? [];
      const a = await transcribe(rec, it.file);
      const report = await rec.prepareKeyterms(terms);
      const b = await transcribe(rec, it.file, { keyterms: terms });
      const n = normalizeForWer(it.ref).length;
      plain.err += wordErrorRate(it.ref, a.text) * n;
      boosted.err += wordErrorRate(it.ref, b.text) * n;
      plain.words += n;
      boosted.words += n;
      for (const t of terms) {
        termHits.total++;
        if (normalizeForWer(a.text).includes(t.toLowerCase())) termHits.plain++;
        if (normalizeForWer(b.text).includes(t.toLowerCase())) termHits.boosted++;
      }
      if (it.voice === kt[0]?.voice) console.log(`  ${terms.join(', ')}: ${keytermWarning(report) ?? ''}`);
    }
    rec.dispose();
    figure('keyterms: WER with', werOf(boosted), '%');
    figure('keyterms: terms recognized with', (100 * termHits.boosted) / Math.max(1, termHits.total), '%', 'higher');
    console.log(
      `  WER without keyterms ${pct(plain)}%, with ${pct(boosted)}%; the term itself recognized ${termHits.plain}/${termHits.total} → ${termHits.boosted}/${termHits.total}`,
    );
  }
}

await main();
process.exit(0);
