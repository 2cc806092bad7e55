/**
 * Accuracy regression guard for the local recognizer (issue 16): a small
 * fixed subset of the accuracy corpus, made at test time (flite voices, one
 * 24 kbps MP3, two sentences in 10 dB room noise, two LibriVox clips of
 * pocketsphinx-testdata), through the batch path as a job runs it (ffmpeg
 * decode → noise suppression when noisy → VAD segments → PocketSphinx → format).
 * Fails when WER rises more than 2 points above the figure recorded here.
 * The full picture is `npm run bench -- accuracy`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SphinxRecognizer } from '../../src/engine/recognizer/index';
import { formatTranscript } from '../../src/engine/text/format';
import { normalizeForWer, wordErrorRate } from '../../src/engine/text/wer';
import { hasFlite, withRoomNoise } from '../fixtures/speech';
import { recognizeFile } from './support/transcribe';

/** WER (%) of this subset when it was recorded (13.3 before the two noisy sentences joined it; their noise is the same on every run); the test fails above this + 2. */
const RECORDED_WER = 18.2;

const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';
const SUBSET: { voice: string; text: string; mp3?: number; noiseDb?: number }[] = [
  { voice: 'kal16', text: 'the meeting has been moved to thursday afternoon' },
  { voice: 'kal16', text: 'can you pick up some milk on the way home' },
  { voice: 'awb', text: 'the store closes at nine in the evening' },
  { voice: 'awb', text: 'thank you for your help with the project' },
  { voice: 'rms', text: 'the package should arrive on monday morning' },
  { voice: 'rms', text: 'the road was closed because of the snow' },
  { voice: 'slt', text: 'we are going to visit my parents in june' },
  { voice: 'slt', text: 'please call me back when you get this message', mp3: 24 },
  { voice: 'rms', text: 'the meeting has been moved to thursday afternoon', noiseDb: 10 },
  { voice: 'slt', text: 'thank you for your help with the project', noiseDb: 10 },
];
const LIBRIVOX_CLIPS = [
  { id: 'sense_and_sensibility_01_austen_64kb-0880', text: 'he was not an ill disposed young man' },
  { id: 'sense_and_sensibility_01_austen_64kb-0930', text: 'he might even have been made amiable himself' },
];

let dir: string;
const rec = new SphinxRecognizer({ poolSize: 1 });
const ready = hasFlite() && existsSync(LIBRIVOX) && rec.available;

async function transcribe(file: string): Promise<string> {
  const { words } = await recognizeFile(rec, file, join(dir, 'audio.raw'));
  return formatTranscript(words, { punctuate: true, formatText: true }).text;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'recognizer-accuracy-'));
});

afterAll(() => {
  rec.dispose();
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});

describe.skipIf(!ready)('recognizer accuracy on a fixed subset', () => {
  const results: { ref: string; hyp: string }[] = [];

  it(`keeps WER within 2 points of the recorded ${RECORDED_WER}%`, async () => {
    for (const [i, s] of SUBSET.entries()) {
      let file = join(dir, `s${i}.wav`);
      execFileSync('flite', ['-voice', s.voice, '-t', s.text, '-o', file]);
      if (s.mp3) {
        const mp3 = join(dir, `s${i}.mp3`);
        execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', file, '-ar', '16000', '-c:a', 'libmp3lame', '-b:a', `${s.mp3}k`, mp3]);
        file = mp3;
      }
      if (s.noiseDb) file = withRoomNoise(file, s.noiseDb, join(dir, `s${i}-noisy.wav`));
      results.push({ ref: s.text, hyp: await transcribe(file) });
    }
    for (const c of LIBRIVOX_CLIPS) results.push({ ref: c.text, hyp: await transcribe(join(LIBRIVOX, `${c.id}.wav`)) });
    let errors = 0;
    let words = 0;
    for (const r of results) {
      const n = normalizeForWer(r.ref).length;
      errors += wordErrorRate(r.ref, r.hyp) * n;
      words += n;
    }
    const wer = (100 * errors) / words;
    expect(wer, results.map((r) => `${r.ref} → ${r.hyp}`).join('\n')).toBeLessThanOrEqual(RECORDED_WER + 2);
    // Twelve decodes one after another: a loaded machine takes several times as long as an idle one.
  }, 600_000);

  it('reads "please call me back when you get this message" from a 24 kbps MP3 exactly', () => {
    const r = results.find((x) => x.ref.startsWith('please call me back'));
    expect(r?.hyp).toBe('Please call me back when you get this message.');
  });
});
