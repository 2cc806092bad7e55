/**
 * Builds the accuracy corpus into bench/results/corpus (gitignored, never
 * committed): every flite voice and festival's American voices read the
 * sentences of ./sentences.ts, the LibriVox clips of pocketsphinx-testdata
 * join them, and each clip is passed through the conditions users feed us
 * (MP3 24/64 kbps, Opus 16 kbps, AAC, 8 kHz telephone band, room noise at
 * 10 dB SNR). Voices are split by speaker: kal and awb tune, the others
 * (rms, slt, ked, the LibriVox reader) are held out.
 *   npx tsx bench/corpus/speech-corpus.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withRoomNoise } from '../../tests/fixtures/speech';
import { KEYTERM_SENTENCES, SENTENCES } from './sentences';

export const CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'corpus');
const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';
const VERSION = 3;

export type Split = 'tune' | 'heldout';
export interface Voice {
  id: string;
  speaker: string;
  split: Split;
  tool: 'flite' | 'festival' | 'librivox';
  /** flite -voice name or festival voice function. */
  voice: string;
}

export const VOICES: readonly Voice[] = [
  { id: 'flite-kal', speaker: 'kal', split: 'tune', tool: 'flite', voice: 'kal' },
  { id: 'flite-kal16', speaker: 'kal', split: 'tune', tool: 'flite', voice: 'kal16' },
  { id: 'festival-kal', speaker: 'kal', split: 'tune', tool: 'festival', voice: 'voice_kal_diphone' },
  { id: 'flite-awb', speaker: 'awb', split: 'tune', tool: 'flite', voice: 'awb' },
  { id: 'flite-rms', speaker: 'rms', split: 'heldout', tool: 'flite', voice: 'rms' },
  { id: 'flite-slt', speaker: 'slt', split: 'heldout', tool: 'flite', voice: 'slt' },
  { id: 'festival-slt-hts', speaker: 'slt', split: 'heldout', tool: 'festival', voice: 'voice_cmu_us_slt_arctic_hts' },
  { id: 'festival-ked', speaker: 'ked', split: 'heldout', tool: 'festival', voice: 'voice_ked_diphone' },
];

export const CONDITIONS = ['clean', 'mp3-24k', 'mp3-64k', 'opus-16k', 'aac-48k', 'phone-8k', 'noise-10db'] as const;
export type Condition = (typeof CONDITIONS)[number];

export interface Item {
  voice: string;
  speaker: string;
  split: Split;
  condition: Condition;
  file: string;
  ref: string;
  keyterms?: string[];
}

export interface Corpus {
  items: Item[];
  /** Voices that could not be made (festival missing), with why. */
  skipped: string[];
}

const PER_VOICE = 12;

function has(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function sh(cmd: string, args: string[], input?: string): void {
  execFileSync(cmd, args, { stdio: ['pipe', 'ignore', 'pipe'], input });
}

/** Speech of `text` in `voice`, as 16 kHz mono 16-bit WAV. */
function speak(v: Voice, text: string, out: string): void {
  const tmp = `${out}.tts.wav`;
  if (v.tool === 'flite') sh('flite', ['-voice', v.voice, '-t', text, '-o', tmp]);
  else sh('text2wave', ['-eval', `(${v.voice})`, '-o', tmp], text);
  // flite's kal speaks at 8 kHz; festival's HTS voice at 32 kHz; all go to 16 kHz with a little lead-in silence.
  sh('sox', [tmp, '-r', '16000', '-c', '1', '-b', '16', out, 'pad', '0.3', '0.3']);
  sh('rm', ['-f', tmp]);
}

/** Passes the clean clip through a condition; returns the file made. */
function degrade(clean: string, cond: Condition, base: string): string {
  const ff = (args: string[], out: string) => sh('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', clean, ...args, out]);
  switch (cond) {
    case 'clean':
      return clean;
    case 'mp3-24k':
      ff(['-c:a', 'libmp3lame', '-b:a', '24k'], `${base}.mp3`);
      return `${base}.mp3`;
    case 'mp3-64k':
      ff(['-c:a', 'libmp3lame', '-b:a', '64k'], `${base}.mp3`);
      return `${base}.mp3`;
    case 'opus-16k':
      ff(['-c:a', 'libopus', '-b:a', '16k'], `${base}.ogg`);
      return `${base}.ogg`;
    case 'aac-48k':
      ff(['-c:a', 'aac', '-b:a', '48k'], `${base}.m4a`);
      return `${base}.m4a`;
    case 'phone-8k':
      // Telephone band: 300–3400 Hz, 8 kHz μ-law.
      sh('sox', [clean, '-r', '8000', '-e', 'u-law', `${base}.wav`, 'sinc', '300-3400']);
      return `${base}.wav`;
    case 'noise-10db':
      // Room noise: pink noise with the highs rolled off, 10 dB below the speech's RMS level.
      return withRoomNoise(clean, 10, `${base}.wav`);
  }
}

function librivoxClips(): { id: string; ref: string; file: string }[] {
  const listing = join(LIBRIVOX, 'transcription');
  if (!existsSync(listing)) return [];
  return readFileSync(listing, 'utf8')
    .split('\n')
    .map((l) => /^<s> (.*) <\/s> \((.*)\)$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ id: m[2] as string, ref: m[1] as string, file: join(LIBRIVOX, `${m[2] as string}.wav`) }));
}

/** Builds the corpus (or reuses the one on disk when it is current). */
export function buildCorpus(log: (s: string) => void = console.log): Corpus {
  const manifest = join(CORPUS_DIR, 'manifest.json');
  if (existsSync(manifest)) {
    const m = JSON.parse(readFileSync(manifest, 'utf8')) as Corpus & { version: number };
    if (m.version === VERSION) return m;
  }
  for (const tool of ['flite', 'sox', 'ffmpeg'])
    if (!has(tool, tool === 'flite' ? ['-lv'] : tool === 'sox' ? ['--version'] : ['-version']))
      throw new Error(`${tool} is missing: install the Debian package ${tool}`);
  const festival = has('sh', ['-c', 'command -v text2wave']);
  const items: Item[] = [];
  const skipped: string[] = [];
  mkdirSync(CORPUS_DIR, { recursive: true });
  VOICES.forEach((v, vi) => {
    if (v.tool === 'festival' && !festival) {
      skipped.push(`${v.id}: festival is not installed (apt-get install festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts)`);
      return;
    }
    log(`corpus: ${v.id}`);
    const texts = Array.from({ length: PER_VOICE }, (_, k) => ({
      text: SENTENCES[(vi * 6 + k) % SENTENCES.length] as string,
      keyterms: undefined as string[] | undefined,
    }));
    // The sentence of the 24 kbps report is read by every voice.
    if (!texts.some((t) => t.text === SENTENCES[0])) texts[0] = { text: SENTENCES[0] as string, keyterms: undefined };
    const withTerms = v.split === 'heldout' ? KEYTERM_SENTENCES.map((k) => ({ text: k.text, keyterms: k.keyterms })) : [];
    [...texts, ...withTerms].forEach((t, n) => {
      const base = join(CORPUS_DIR, `${v.id}-${String(n).padStart(2, '0')}`);
      const clean = `${base}.clean.wav`;
      try {
        speak(v, t.text, clean);
      } catch (err) {
        skipped.push(`${v.id}: ${(err as Error).message.split('\n')[0] ?? ''}`);
        return;
      }
      const conds: readonly Condition[] = t.keyterms ? ['clean'] : CONDITIONS;
      for (const c of conds)
        items.push({
          voice: v.id,
          speaker: v.speaker,
          split: v.split,
          condition: c,
          file: degrade(clean, c, `${base}.${c}`),
          ref: t.text,
          ...(t.keyterms ? { keyterms: t.keyterms } : {}),
        });
    });
  });
  for (const clip of librivoxClips()) {
    const base = join(CORPUS_DIR, `librivox-${clip.id.slice(-4)}`);
    const clean = `${base}.clean.wav`;
    sh('sox', [clip.file, '-r', '16000', '-c', '1', '-b', '16', clean]);
    for (const c of CONDITIONS)
      items.push({ voice: 'librivox', speaker: 'librivox', split: 'heldout', condition: c, file: degrade(clean, c, `${base}.${c}`), ref: clip.ref });
  }
  if (!librivoxClips().length) skipped.push('librivox: the clips are missing (install the Debian package pocketsphinx-testdata)');
  const corpus: Corpus = { items, skipped };
  writeFileSync(manifest, JSON.stringify({ version: VERSION, ...corpus }, null, 1));
  return corpus;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const c = buildCorpus();
  console.log(`${c.items.length} clips in ${CORPUS_DIR}`);
  for (const s of c.skipped) console.log(`skipped ${s}`);
}
