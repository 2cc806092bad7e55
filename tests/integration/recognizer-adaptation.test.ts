/**
 * Speaker adaptation of batch jobs (src/engine/recognizer/adapt.ts and
 * src/engine/jobs/recognize-segments.ts): a first pass, an MLLR transform
 * made by sphinxtrain from its words, a second pass with it; one pass when
 * the recording is short or the tools are missing or fail.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeToRaw, readSamples } from '../../src/engine/audio/decode';
import { findSpeechSegments } from '../../src/engine/audio/segment';
import { stopSpawner } from '../../src/engine/audio/spawner';
import { recognizeSegments } from '../../src/engine/jobs/recognize-segments';
import { sendumpToMixw } from '../../src/engine/recognizer/adapt';
import { SpeakerAdapter, SphinxRecognizer } from '../../src/engine/recognizer/index';
import { SPHINX_MODEL_DIR } from '../../src/engine/recognizer/sphinx';
import { wordErrorRate } from '../../src/engine/text/wer';
import { concatSpeech, hasFlite } from '../fixtures/speech';
import { engineSandbox } from '../support/engine';

// flite's kal speaks at 8 kHz: far from the model's speakers, the case adaptation helps most.
const SENTENCES = [
  'the meeting has been moved to thursday afternoon',
  'we need to finish the report before the end of the week',
  'i will send you the slides after lunch',
  'the train leaves the station at seven thirty',
  'can you pick up some milk on the way home',
  'our flight to london was delayed by two hours',
  'the doctor said i should rest for a few days',
  'the children are playing in the garden',
  'let me know if you have any questions',
  'the weather will be cold and windy tomorrow',
  'he forgot his keys at the office again',
  'the store closes at nine in the evening',
];

let dir: string;
const rec = new SphinxRecognizer({ poolSize: 1 });
const adapter = new SpeakerAdapter({ modelDir: SPHINX_MODEL_DIR });
const ready = hasFlite() && rec.available && adapter.available;

/** The sentences read by `voice`, joined into one 16 kHz raw recording. */
async function recording(name: string, voice: string, texts: string[]): Promise<string> {
  const parts: Buffer[] = [];
  for (const [i, t] of texts.entries()) {
    const wav = join(dir, `${name}-${i}.wav`);
    execFileSync('flite', ['-voice', voice, '-t', t, '-o', wav]);
    const raw = join(dir, `${name}-${i}.raw`);
    await decodeToRaw(wav, raw);
    parts.push(readFileSync(raw));
  }
  const out = join(dir, `${name}.raw`);
  writeFileSync(out, Buffer.concat(parts));
  return out;
}

async function transcribe(raw: string, a: SpeakerAdapter | null, warnings: string[] = [], narrowband = true): Promise<{ text: string; adapted: boolean }> {
  const segments = await findSpeechSegments(raw, readFileSync(raw).length / 2);
  const work = join(dir, 'work');
  const r = await recognizeSegments({
    raw,
    segments,
    recognizer: rec,
    adapter: a,
    narrowband,
    workDir: work,
    signal: new AbortController().signal,
    warn: (m) => warnings.push(m),
  });
  rmSync(work, { recursive: true, force: true });
  return {
    text: r.bySegment
      .flat()
      .map((w) => w.text)
      .join(' '),
    adapted: r.adapted,
  };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'adaptation-'));
});

afterAll(() => {
  rec.dispose();
  adapter.dispose();
  stopSpawner();
  rmSync(dir, { recursive: true, force: true });
});

describe('speaker adaptation tools', () => {
  it('converts the model mixture weights to the float file bw reads, every weight a probability', () => {
    const out = sendumpToMixw(readFileSync(join(SPHINX_MODEL_DIR, 'en-us', 'sendump')));
    const at = out.indexOf('endhdr\n') + 7;
    expect(out.readUInt32LE(at)).toBe(0x11223344);
    const [senones, features, densities, count] = [1, 2, 3, 4].map((k) => out.readUInt32LE(at + 4 * k));
    expect([senones, features, densities]).toEqual([5126, 3, 128]);
    expect(count).toBe(5126 * 3 * 128);
    const w = new Float32Array(out.buffer.slice(out.byteOffset + at + 20, out.byteOffset + out.length));
    expect(w.length).toBe(count);
    expect(w.every((v) => v > 0 && v <= 1)).toBe(true);
  });

  it('says what to install when bw and mllr_solve are missing', () => {
    const missing = new SpeakerAdapter({ modelDir: SPHINX_MODEL_DIR, toolDir: join(tmpdir(), 'no-such-sphinxtrain') });
    expect(missing.available).toBe(false);
    expect(missing.unavailableReason).toMatch(/apt-get install sphinxtrain sphinxbase-utils/);
  });
});

describe.skipIf(!ready)('speaker adaptation of a recording', () => {
  let kal: string;
  let plain: { text: string; adapted: boolean };

  it('decodes a recording with 20 s of speech or more twice, and the transform cuts the errors on an 8 kHz voice by a quarter or more', async () => {
    kal = await recording('kal', 'kal', SENTENCES);
    const ref = SENTENCES.join(' ');
    plain = await transcribe(kal, null);
    const warnings: string[] = [];
    const adapted = await transcribe(kal, adapter, warnings);
    expect(warnings).toEqual([]);
    expect(adapted.adapted).toBe(true);
    const before = wordErrorRate(ref, plain.text);
    const after = wordErrorRate(ref, adapted.text);
    expect(after, `one pass: ${plain.text}\nadapted: ${adapted.text}`).toBeLessThanOrEqual(before * 0.75);
  });

  it('keeps decoders that carried a transform apart: plain requests get a decoder with the model as loaded', () => {
    // One plain decoder (first pass) and one adapted (second pass) are pooled; a transform cannot be undone exactly.
    expect(rec.pooledDecoders).toBe(2);
  });

  it('applies one transform after another on the same decoder, as successive recordings do', async () => {
    const segments = await findSpeechSegments(kal, readFileSync(kal).length / 2);
    const utts = [];
    for (const seg of segments.slice(0, 4)) {
      const words = await rec.recognize(await readSamples(kal, seg.start, seg.end));
      utts.push({ start: seg.start, end: seg.end, words: words.map((w) => w.text) });
    }
    const t = await adapter.solve(kal, utts, join(dir, 'solo'), new AbortController().signal);
    const files = ['a', 'b'].map((n) => {
      const f = join(dir, `${n}.mllr`);
      copyFileSync(t.file, f);
      return f;
    });
    const first = segments[0] as { start: number; end: number };
    const pcm = await readSamples(kal, first.start, first.end);
    const heard: string[] = [];
    for (let i = 0; i < 6; i++) heard.push((await rec.recognize(pcm, { speaker: { file: files[i % 2] as string } })).map((w) => w.text).join(' '));
    // The same transform under two names: the same words every time, and the process still standing.
    expect(new Set(heard).size).toBe(1);
    expect(heard[0]?.split(' ').length).toBeGreaterThan(3);
  });

  it('decodes a wideband recording once (adaptation makes clean wideband speech worse)', async () => {
    const warnings: string[] = [];
    const r = await transcribe(kal, adapter, warnings, false);
    expect(r.adapted).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('decodes a short recording once', async () => {
    const short = await recording('short', 'kal', SENTENCES.slice(0, 2));
    const warnings: string[] = [];
    const r = await transcribe(short, adapter, warnings);
    expect(r.adapted).toBe(false);
    expect(warnings).toEqual([]);
    expect(r.text.split(' ').length).toBeGreaterThan(8);
  });

  it('keeps the first pass and warns when the adaptation tools fail', async () => {
    const tools = join(dir, 'broken-sphinxtrain');
    mkdirSync(tools);
    for (const t of ['bw', 'mllr_solve']) {
      writeFileSync(join(tools, t), '#!/bin/sh\necho "FATAL: broken on purpose" >&2\nexit 1\n');
      chmodSync(join(tools, t), 0o755);
    }
    const broken = new SpeakerAdapter({ modelDir: SPHINX_MODEL_DIR, toolDir: tools });
    const warnings: string[] = [];
    const r = await transcribe(kal, broken, warnings);
    broken.dispose();
    expect(r.adapted).toBe(false);
    expect(warnings).toEqual([expect.stringMatching(/speaker adaptation failed, decoding in one pass \(bw failed: FATAL: broken on purpose\)/)]);
    // The first pass stands: as good as a one-pass decode (a pooled decoder's words can vary slightly with what it decoded before).
    expect(wordErrorRate(SENTENCES.join(' '), r.text)).toBeLessThanOrEqual(wordErrorRate(SENTENCES.join(' '), plain.text) + 0.05);
  });
});

describe.skipIf(!ready)('speaker adaptation in the engine', () => {
  it('decodes a 30 s 8 kHz job a second time with the speaker transform (off with speakerAdaptation: false) and leaves no work files', async () => {
    const sandbox = engineSandbox('engine-adaptation-');
    try {
      const parts = SENTENCES.map((t, i) => {
        const wav = join(sandbox.dir, `kal-${i}.wav`);
        execFileSync('flite', ['-voice', 'kal', '-t', t, '-o', wav]);
        return wav;
      });
      // Narrowband, as a telephone recording: kal is an 8 kHz voice; concatSpeech writes 16 kHz.
      const file = join(sandbox.dir, 'kal-8k.wav');
      execFileSync('sox', [concatSpeech(sandbox.dir, 'kal-all', parts, 0.3), '-r', '8000', file]);
      const texts: string[] = [];
      for (const speakerAdaptation of [false, true]) {
        const data = `data-${String(speakerAdaptation)}`;
        const engine = await sandbox.start('adapt-key', { workers: 1, speakerAdaptation, data });
        const headers = { authorization: 'adapt-key' };
        const up = (await (await fetch(`${engine.url}/v2/upload`, { method: 'POST', headers, body: readFileSync(file) })).json()) as { upload_url: string };
        const created = await fetch(`${engine.url}/v2/transcript`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ audio_url: up.upload_url, punctuate: false, format_text: false }),
        });
        const { id } = (await created.json()) as { id: string };
        let t: { status: string; text?: string; error?: string | null } = { status: 'queued' };
        while (t.status !== 'completed' && t.status !== 'error') {
          await new Promise((r) => setTimeout(r, 250));
          t = (await (await fetch(`${engine.url}/v2/transcript/${id}`, { headers })).json()) as typeof t;
        }
        expect(t.status, t.error ?? '').toBe('completed');
        texts.push(t.text ?? '');
        await engine.close();
        const left = readdirSync(join(sandbox.dir, data), { recursive: true, encoding: 'utf8' }).filter((f) => /(^|\/)adapt$/.test(f));
        expect(left).toEqual([]);
      }
      // The adapted model hears this voice differently; both read it about as well or better (one pass ~35% WER here).
      expect(texts[1]).not.toBe(texts[0]);
      expect(wordErrorRate(SENTENCES.join(' '), texts[1] ?? '')).toBeLessThan(0.5);
    } finally {
      await sandbox.cleanup();
    }
  });
});
