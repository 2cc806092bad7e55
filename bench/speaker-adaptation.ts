/**
 * Speaker adaptation (issue 16) on recordings long enough for it: each
 * voice's sentences of the accuracy corpus, in one condition, joined into one
 * recording (~35–45 s of speech). Decoded as a job decodes them
 * (src/engine/jobs/recognize-segments.ts): one pass, and first pass + MLLR
 * transform + second pass; prints WER per recording and the real-time factors.
 *   npm run bench -- speaker-adaptation     (SPLIT=tune|heldout|all, CONDS=clean,phone-8k,...)
 * Needs sphinxtrain and sphinxbase-utils (Debian); the corpus clips alone
 * (one sentence each) are too short to be adapted, so bench/accuracy.ts
 * does not see this.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeToRaw, NARROWBAND_BELOW_HZ, probeSampleRate } from '../src/engine/audio/decode';
import { findSpeechSegments } from '../src/engine/audio/segment';
import { recognizeSegments } from '../src/engine/jobs/recognize-segments';
import { SpeakerAdapter, SphinxRecognizer } from '../src/engine/recognizer/index';
import { SPHINX_MODEL_DIR } from '../src/engine/recognizer/sphinx';
import { formatTranscript } from '../src/engine/text/format';
import { normalizeForWer, wordErrorRate } from '../src/engine/text/wer';
import { buildCorpus, CONDITIONS } from './corpus/speech-corpus';
import { figure } from './_figure';

// The ffmpeg helper process is unref'd; the script keeps itself alive and exits when done.
setInterval(() => undefined, 60_000);

interface Run {
  text: string;
  seconds: number;
  cpu: number;
  adapted: boolean;
}

async function transcribe(rec: SphinxRecognizer, adapter: SpeakerAdapter | null, raw: string, work: string): Promise<Run> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const samples = readFileSync(raw).length / 2;
  const segments = await findSpeechSegments(raw, samples);
  const { bySegment, adapted } = await recognizeSegments({
    raw,
    segments,
    recognizer: rec,
    adapter,
    // Every recording is adapted here, to measure the transform on each condition; the engine adapts narrowband sources only.
    narrowband: true,
    workDir: work,
    signal: new AbortController().signal,
    warn: (m) => console.log(`  warning: ${m}`),
  });
  rmSync(work, { recursive: true, force: true });
  const words = segments.flatMap((seg, i) => (bySegment[i] ?? []).map((w) => ({ ...w, start: w.start + seg.start / 16, end: w.end + seg.start / 16 })));
  const c = process.cpuUsage(c0);
  return {
    text: formatTranscript(words, { punctuate: true, formatText: true }).text,
    seconds: (performance.now() - t0) / 1000,
    cpu: (c.user + c.system) / 1e6,
    adapted,
  };
}

async function main(): Promise<void> {
  const adapter = new SpeakerAdapter({ modelDir: SPHINX_MODEL_DIR });
  if (!adapter.available) throw new Error(`speaker adaptation is unavailable: ${adapter.unavailableReason ?? ''}`);
  const split = process.env.SPLIT ?? 'tune';
  const conds = process.env.CONDS ? process.env.CONDS.split(',') : [...CONDITIONS];
  const corpus = buildCorpus((s) => console.log(s));
  const dir = mkdtempSync(join(tmpdir(), 'adapt-bench-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const rec = new SphinxRecognizer({ poolSize: 1 });
  await rec.prewarm(1);
  const voices = [...new Set(corpus.items.filter((i) => (split === 'all' || i.split === split) && i.voice !== 'librivox').map((i) => i.voice))];
  console.log(`speaker adaptation, ${split} voices: each voice's sentences in one condition joined into one recording\n`);
  console.log('recording                       speech s  words   1 pass   2 pass   (engine: 2 pass for narrowband sources)');
  const total = { one: 0, two: 0, engine: 0, n: 0, audio: 0, cpu1: 0, cpu2: 0, wall1: 0, wall2: 0 };
  const byCond = new Map<string, { one: number; two: number; n: number }>();
  for (const voice of voices)
    for (const cond of conds) {
      const items = corpus.items.filter((i) => i.voice === voice && i.condition === cond && !i.keyterms);
      if (!items.length) continue;
      const parts: Buffer[] = [];
      for (const [k, it] of items.entries()) {
        const one = join(dir, `part${k}.raw`);
        await decodeToRaw(it.file, one);
        parts.push(readFileSync(one));
        rmSync(one);
      }
      const raw = join(dir, 'recording.raw');
      writeFileSync(raw, Buffer.concat(parts));
      const audio = parts.reduce((t, b) => t + b.length / 2, 0) / 16000;
      const ref = items.map((i) => i.ref).join(' ');
      const a = await transcribe(rec, null, raw, join(dir, 'work'));
      const b = await transcribe(rec, adapter, raw, join(dir, 'work'));
      const n = normalizeForWer(ref).length;
      const w1 = wordErrorRate(ref, a.text);
      const w2 = wordErrorRate(ref, b.text);
      const rate = await probeSampleRate(items[0]?.file ?? '', join(dir, 'probe'));
      const narrow = rate !== null && rate < NARROWBAND_BELOW_HZ;
      total.engine += (narrow ? w2 : w1) * n;
      total.one += w1 * n;
      total.two += w2 * n;
      total.n += n;
      total.audio += audio;
      total.cpu1 += a.cpu;
      total.cpu2 += b.cpu;
      total.wall1 += a.seconds;
      total.wall2 += b.seconds;
      const c = byCond.get(cond) ?? { one: 0, two: 0, n: 0 };
      byCond.set(cond, { one: c.one + w1 * n, two: c.two + w2 * n, n: c.n + n });
      console.log(
        `${`${voice} / ${cond}`.padEnd(32)}${audio.toFixed(1).padStart(8)}${String(n).padStart(7)}${(100 * w1).toFixed(1).padStart(8)}%${(100 * w2).toFixed(1).padStart(8)}%${narrow ? '   narrowband' : ''}${b.adapted ? '' : '  (not adapted)'}`,
      );
    }
  rec.dispose();
  adapter.dispose();
  figure('WER one pass', (100 * total.one) / total.n, '%');
  figure('WER all adapted', (100 * total.two) / total.n, '%');
  figure('WER as the engine does', (100 * total.engine) / total.n, '%');
  figure('RTF one pass', total.wall1 / total.audio, '×');
  figure('RTF adapted', total.wall2 / total.audio, '×');
  figure('CPU RTF one pass', total.cpu1 / total.audio, '×');
  figure('CPU RTF adapted', total.cpu2 / total.audio, '×');
  console.log('\nby condition                     1 pass   2 pass');
  for (const [c, t] of byCond) console.log(`  ${c.padEnd(30)}${((100 * t.one) / t.n).toFixed(1).padStart(7)}%${((100 * t.two) / t.n).toFixed(1).padStart(8)}%`);
  console.log(
    `\nall: WER ${((100 * total.one) / total.n).toFixed(1)}% one pass → ${((100 * total.two) / total.n).toFixed(1)}% all adapted (${(((total.two - total.one) / total.one) * 100).toFixed(0)}% relative); as the engine does (narrowband adapted) ${((100 * total.engine) / total.n).toFixed(1)}%`,
  );
  console.log(
    `RTF (wall, decode + segment + recognize; ffmpeg decode not counted): one pass ${(total.wall1 / total.audio).toFixed(3)}, adapted ${(total.wall2 / total.audio).toFixed(3)}`,
  );
  console.log(
    `CPU RTF (this process; the adaptation tools' own CPU not counted, their wall time is): one pass ${(total.cpu1 / total.audio).toFixed(3)}, adapted ${(total.cpu2 / total.audio).toFixed(3)}`,
  );
}

await main();
process.exit(0);
