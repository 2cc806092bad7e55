/**
 * PocketSphinx (Debian's libpocketsphinx.so.3, 5prealpha API) through koffi:
 * the library binding and one decoder. Every decoder call runs through
 * koffi's async calls on a worker thread, so the event loop never waits on
 * decoding; calls on one decoder are chained. Decoder creation and freeing
 * are serialized process-wide here (`oneAtATime`): callers need no lock.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Koffi from 'koffi';
import type { KeytermReport, RecognizedWord, SpeakerTransform } from './types';
import { SAMPLE_RATE } from './types';
const require = createRequire(import.meta.url);

export const SPHINX_LIB = '/usr/lib/x86_64-linux-gnu/libpocketsphinx.so.3';
export const SPHINXBASE_LIB = '/usr/lib/x86_64-linux-gnu/libsphinxbase.so.3';
export const SPHINX_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
export const INSTALL_HINT =
  'install the Debian packages libpocketsphinx3 and pocketsphinx-en-us (sudo apt-get install libpocketsphinx3 pocketsphinx-en-us), then restart the engine';

/** Frames are 10 ms at the default -frate 100. */
const FRAME_MS = 10;
const FILLERS = new Set(['<s>', '</s>', '<sil>', '[NOISE]', '[noise]', '<unk>', '[SPEECH]', '[BREATH]', '[COUGH]', '[UM]', '[UH]', '[SMACK]']);

export type Ptr = bigint;
type AsyncFn = { async: (...args: unknown[]) => void } & ((...args: unknown[]) => unknown);

export interface SphinxApi {
  cmd_ln_parse_r: AsyncFn;
  ps_args: AsyncFn;
  ps_init: AsyncFn;
  ps_free: AsyncFn;
  ps_start_utt: AsyncFn;
  ps_start_stream: AsyncFn;
  ps_process_raw: AsyncFn;
  ps_end_utt: AsyncFn;
  ps_get_hyp: AsyncFn;
  ps_get_in_speech: AsyncFn;
  ps_get_logmath: AsyncFn;
  ps_seg_iter: AsyncFn;
  ps_seg_next: AsyncFn;
  ps_seg_word: AsyncFn;
  ps_seg_frames: AsyncFn;
  ps_seg_prob: AsyncFn;
  ps_seg_free: AsyncFn;
  ps_add_word: AsyncFn;
  ps_lookup_word: AsyncFn;
  ps_mllr_read: AsyncFn;
  ps_update_mllr: AsyncFn;
  ps_mllr_free: AsyncFn;
  ckd_free: AsyncFn;
  logmath_exp: AsyncFn;
  /** Decodes a NUL-terminated C string. */
  cString: (p: Ptr) => string;
}

export function call<T>(fn: AsyncFn, ...args: unknown[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    fn.async(...args, (err: unknown, res: T) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(res)));
  });
}

let api: SphinxApi | null = null;
let loadError: string | null = null;

/** Why the library could not load, or null. */
export function sphinxLoadError(): string | null {
  loadApi();
  return loadError;
}

/**
 * Decoder creation and freeing, one at a time in the whole process: ps_init
 * is not known to be thread-safe, and the batch and live pools (and several
 * engines in one test process) warm up at the same time on koffi's worker
 * threads. A heap corruption ("free(): unaligned chunk") was seen there under
 * CI load. Decoding itself stays parallel.
 */
let lifecycle: Promise<unknown> = Promise.resolve();
export function oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
  const next = lifecycle.then(fn, fn);
  lifecycle = next.catch(() => undefined);
  return next;
}

export function loadApi(): SphinxApi | null {
  if (api || loadError) return api;
  try {
    for (const f of [SPHINX_LIB, SPHINXBASE_LIB]) if (!existsSync(f)) throw new Error(`${f} is missing`);
    const koffi = require('koffi') as typeof Koffi;
    const base = koffi.load(SPHINXBASE_LIB);
    const ps = koffi.load(SPHINX_LIB);
    // Logging off once for the process. A per-decoder -logfn made every ps_init open a new global
    // log file and fclose the old one, while decoders on other threads could be writing to it.
    (base.func('void err_set_logfp(void *stream)') as unknown as (s: null) => void)(null);
    api = {
      cmd_ln_parse_r: base.func('void *cmd_ln_parse_r(void *inout, void *defn, int argc, const char **argv, int strict)') as AsyncFn,
      logmath_exp: base.func('double logmath_exp(void *lmath, int logb_p)') as AsyncFn,
      ps_args: ps.func('void *ps_args()') as AsyncFn,
      ps_init: ps.func('void *ps_init(void *config)') as AsyncFn,
      ps_free: ps.func('int ps_free(void *ps)') as AsyncFn,
      ps_start_utt: ps.func('int ps_start_utt(void *ps)') as AsyncFn,
      ps_start_stream: ps.func('int ps_start_stream(void *ps)') as AsyncFn,
      ps_process_raw: ps.func('int ps_process_raw(void *ps, const int16_t *data, size_t n, int no_search, int full_utt)') as AsyncFn,
      ps_end_utt: ps.func('int ps_end_utt(void *ps)') as AsyncFn,
      ps_get_hyp: ps.func('const char *ps_get_hyp(void *ps, _Out_ int32_t *score)') as AsyncFn,
      ps_get_in_speech: ps.func('uint8_t ps_get_in_speech(void *ps)') as AsyncFn,
      ps_get_logmath: ps.func('void *ps_get_logmath(void *ps)') as AsyncFn,
      ps_seg_iter: ps.func('void *ps_seg_iter(void *ps)') as AsyncFn,
      ps_seg_next: ps.func('void *ps_seg_next(void *seg)') as AsyncFn,
      ps_seg_word: ps.func('const char *ps_seg_word(void *seg)') as AsyncFn,
      ps_seg_frames: ps.func('void ps_seg_frames(void *seg, _Out_ int *sf, _Out_ int *ef)') as AsyncFn,
      ps_seg_prob: ps.func('int32_t ps_seg_prob(void *seg, _Out_ int32_t *ascr, _Out_ int32_t *lscr, _Out_ int32_t *lback)') as AsyncFn,
      ps_seg_free: ps.func('void ps_seg_free(void *seg)') as AsyncFn,
      ps_add_word: ps.func('int ps_add_word(void *ps, const char *word, const char *phones, int update)') as AsyncFn,
      ps_lookup_word: ps.func('void *ps_lookup_word(void *ps, const char *word)') as AsyncFn,
      ps_mllr_read: ps.func('void *ps_mllr_read(const char *file)') as AsyncFn,
      ps_update_mllr: ps.func('void *ps_update_mllr(void *ps, void *mllr)') as AsyncFn,
      ps_mllr_free: ps.func('int ps_mllr_free(void *mllr)') as AsyncFn,
      ckd_free: base.func('void ckd_free(void *ptr)') as AsyncFn,
      cString: (p: Ptr) => koffi.decode(p, 'char', -1) as string,
    };
  } catch (err) {
    loadError = `PocketSphinx is not available (${err instanceof Error ? err.message : String(err)}): ${INSTALL_HINT}.`;
    api = null;
  }
  return api;
}

/** Strips pronunciation variants: "read(2)" → "read". */
export function cleanSphinxWord(w: string): string | null {
  if (FILLERS.has(w) || /^\[.*\]$/.test(w) || /^<.*>$/.test(w) || /^\+\+.*\+\+$/.test(w)) return null;
  return w.replace(/\(\d+\)$/, '');
}

export class Decoder {
  /** Keyterm words this decoder was prepared with, and what became of each. */
  readonly keyterms = new Map<string, keyof Omit<KeytermReport, 'by'>>();
  private chain: Promise<unknown> = Promise.resolve();
  private inUtt = false;
  /** Segment frames count from the decoder's creation, not the utterance's start: samples before this utterance. */
  private samplesBefore = 0;
  private uttSamples = 0;
  constructor(
    readonly a: SphinxApi,
    readonly ps: Ptr,
    readonly lmath: Ptr,
  ) {}

  /** Runs `fn` after every earlier call on this decoder. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  async ensureUtt(): Promise<void> {
    if (this.inUtt) return;
    const rc = await call<number>(this.a.ps_start_utt, this.ps);
    if (rc < 0) throw new Error('PocketSphinx could not start an utterance');
    this.inUtt = true;
  }

  async process(pcm: Int16Array): Promise<void> {
    await this.ensureUtt();
    // Copy: the caller may reuse its buffer while the worker thread reads ours.
    const copy = new Int16Array(pcm);
    const rc = await call<number>(this.a.ps_process_raw, this.ps, copy, copy.length, 0, 0);
    this.uttSamples += copy.length;
    if (rc < 0) throw new Error('PocketSphinx failed to process audio');
  }

  /** Decodes one whole utterance in a single call (batch CMN: deterministic and more accurate than live CMN). */
  async processFull(pcm: Int16Array): Promise<RecognizedWord[]> {
    if (this.inUtt) await this.end();
    // A new stream resets the front end's noise estimate, which otherwise carries over from whatever this pooled decoder
    // heard before: the same audio read differently depending on the files decoded ahead of it.
    if ((await call<number>(this.a.ps_start_stream, this.ps)) < 0) throw new Error('PocketSphinx could not start a stream');
    await this.ensureUtt();
    const copy = new Int16Array(pcm);
    const rc = await call<number>(this.a.ps_process_raw, this.ps, copy, copy.length, 0, 1);
    if (rc < 0) throw new Error('PocketSphinx failed to process audio');
    return this.end();
  }

  async hyp(): Promise<string> {
    if (!this.inUtt) return '';
    const s = await call<string | null>(this.a.ps_get_hyp, this.ps, [0]);
    return s ?? '';
  }

  async inSpeech(): Promise<boolean> {
    if (!this.inUtt) return false;
    return (await call<number>(this.a.ps_get_in_speech, this.ps)) !== 0;
  }

  /** Ends the utterance; returns words with times relative to the utterance start. */
  async end(): Promise<RecognizedWord[]> {
    if (!this.inUtt) return [];
    this.inUtt = false;
    await call<number>(this.a.ps_end_utt, this.ps);
    const base = Math.floor(this.samplesBefore / (SAMPLE_RATE / 100));
    this.samplesBefore += this.uttSamples;
    this.uttSamples = 0;
    const words: RecognizedWord[] = [];
    let seg = await call<Ptr | null>(this.a.ps_seg_iter, this.ps);
    while (seg) {
      const raw = await call<string | null>(this.a.ps_seg_word, seg);
      const sf = [0];
      const ef = [0];
      await call<void>(this.a.ps_seg_frames, seg, sf, ef);
      const prob = await call<number>(this.a.ps_seg_prob, seg, [0], [0], [0]);
      const word = raw ? cleanSphinxWord(raw) : null;
      if (word) {
        let confidence = await call<number>(this.a.logmath_exp, this.lmath, prob);
        if (!Number.isFinite(confidence)) confidence = 0;
        confidence = Math.min(1, Math.max(0, confidence));
        words.push({
          text: word,
          start: ((sf[0] ?? 0) - base) * FRAME_MS,
          end: ((ef[0] ?? 0) - base + 1) * FRAME_MS,
          confidence: Math.round(confidence * 1000) / 1000,
        });
      }
      seg = await call<Ptr | null>(this.a.ps_seg_next, seg);
    }
    return words;
  }

  /** The word's phones in this decoder's dictionary, or null. */
  async lookup(word: string): Promise<string | null> {
    const p = await call<Ptr | null>(this.a.ps_lookup_word, this.ps, word);
    if (!p) return null;
    try {
      return this.a.cString(p);
    } finally {
      await call<void>(this.a.ckd_free, p);
    }
  }

  /** Adds a word to the dictionary and the language model (`update` rebuilds the search). */
  async addWord(word: string, phones: string, update: boolean): Promise<boolean> {
    return (await call<number>(this.a.ps_add_word, this.ps, word, phones, update ? 1 : 0)) >= 0;
  }

  /** The speaker transform file the model's means carry now (null: as loaded). */
  private mllr: string | null = null;

  /**
   * Applies a speaker transform to this decoder's model. The library re-reads
   * the means from the model files before it transforms them, so one
   * recording's transform does not stack on the previous one's.
   */
  async useTransform(t: SpeakerTransform): Promise<void> {
    if (t.file === this.mllr) return;
    const m = await call<Ptr | null>(this.a.ps_mllr_read, t.file);
    if (!m) throw new Error(`PocketSphinx could not read the speaker transform ${t.file}`);
    // Until the update succeeds the means are in an unknown state: the next call applies again.
    this.mllr = '';
    // The decoder takes the transform over without a reference of its own (acmod_update_mllr frees the
    // previous one, and ps_free the last): freeing it here too corrupted the heap on the next update.
    const applied = await call<Ptr | null>(this.a.ps_update_mllr, this.ps, m);
    if (!applied) {
      await call<number>(this.a.ps_mllr_free, m);
      throw new Error('PocketSphinx could not apply the speaker transform');
    }
    this.mllr = t.file;
  }

  async free(): Promise<void> {
    await oneAtATime(() => call<number>(this.a.ps_free, this.ps));
  }
}
