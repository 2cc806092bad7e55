/**
 * The engine's batch path without HTTP, for the accuracy benchmarks: ffmpeg
 * decode → noise suppression when noisy → speech segments → PocketSphinx per
 * segment → formatted text. `before` runs the decode step and decoder
 * settings the engine had before issue 16 (no noise suppression), so both can
 * be measured on the same corpus in one run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeToRaw, readSamples } from '../../src/engine/audio/decode';
import { suppressNoise, type DenoiseOptions } from '../../src/engine/audio/denoise';
import { findSpeechSegments } from '../../src/engine/audio/segment';
import type { RecognizedWord, Recognizer } from '../../src/engine/recognizer/index';
import { formatTranscript } from '../../src/engine/text/format';

/** The decoder settings before issue 16 (src/engine/recognizer/sphinx.ts at 830209c). */
export const BEFORE_ARGS: Record<string, string> = { '-pl_window': '5', '-maxhmmpf': '2000' };

export interface Transcribed {
  text: string;
  /** Seconds of audio and of wall time spent (decode + segment + recognize). */
  audioSeconds: number;
  seconds: number;
  /** CPU seconds of this process (decoder threads included; ffmpeg's own CPU is not). */
  cpuSeconds: number;
}

// The ffmpeg helper process is unref'd (it must not hold an engine open); a benchmark script keeps itself alive and exits when done.
setInterval(() => undefined, 60_000);

const scratch = mkdtempSync(join(tmpdir(), 'accuracy-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

function decodeBefore(input: string, output: string): number {
  execFileSync('ffmpeg', [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    input,
    '-map',
    '0:a:0?',
    '-vn',
    '-sn',
    '-dn',
    '-ac',
    '1',
    '-ar',
    '16000',
    '-f',
    's16le',
    '-acodec',
    'pcm_s16le',
    output,
  ]);
  return Math.floor(statSync(output).size / 2);
}

export async function transcribe(
  rec: Recognizer,
  file: string,
  opts: { before?: boolean; keyterms?: string[]; formatText?: boolean; filters?: string; denoise?: boolean | DenoiseOptions } = {},
): Promise<Transcribed> {
  const raw = join(scratch, 'audio.raw');
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const samples = opts.before ? decodeBefore(file, raw) : await decodeToRaw(file, raw, { filters: opts.filters });
  // As the engine's jobs do (jobs/process.ts): noisy recordings are denoised before segmentation.
  if (!opts.before && opts.denoise !== false)
    await suppressNoise(
      raw,
      samples,
      undefined,
      (m) => {
        throw new Error(m);
      },
      typeof opts.denoise === 'object' ? opts.denoise : {},
    );
  const segments = await findSpeechSegments(raw, samples);
  const words: RecognizedWord[] = [];
  for (const seg of segments) {
    const pcm = await readSamples(raw, seg.start, seg.end);
    const ms = Math.round((seg.start / 16000) * 1000);
    for (const w of await rec.recognize(pcm, { keyterms: opts.keyterms })) words.push({ ...w, start: w.start + ms, end: w.end + ms });
  }
  // A model that writes its own punctuation (Parakeet) keeps it, as the engine's jobs do.
  const own = (rec as { punctuates?: boolean }).punctuates === true;
  const { text } = formatTranscript(words, { punctuate: !own, formatText: (opts.formatText ?? true) && !own });
  const c = process.cpuUsage(c0);
  return { text, audioSeconds: samples / 16000, seconds: (performance.now() - t0) / 1000, cpuSeconds: (c.user + c.system) / 1e6 };
}
