/**
 * PocketSphinx (Debian's libpocketsphinx.so.3, 5prealpha API) through koffi.
 * Every decoder call runs through koffi's async calls on a worker thread, so
 * the event loop never waits on decoding; calls on one decoder are chained.
 * Decoders are pooled: a stream keeps one resident, closing returns it.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Koffi from 'koffi';
import type { KeytermReport, PartialResult, RecognizedWord, Recognizer, RecognizerStream } from './types';
import { SAMPLE_RATE } from './types';

const require = createRequire(import.meta.url);

export const SPHINX_LIB = '/usr/lib/x86_64-linux-gnu/libpocketsphinx.so.3';
export const SPHINXBASE_LIB = '/usr/lib/x86_64-linux-gnu/libsphinxbase.so.3';
export const SPHINX_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
const INSTALL_HINT = 'install the Debian packages libpocketsphinx3 and pocketsphinx-en-us (sudo apt-get install libpocketsphinx3 pocketsphinx-en-us), then restart the engine';

/**
 * Batch decoder settings before tuning: phone-loop lookahead and an HMM cap
 * per frame took the RTF on LibriVox clips from ~0.7 to ~0.22.
 */
const BATCH_ARGS: Record<string, string> = { '-pl_window': '5', '-maxhmmpf': '2000' };

/** Frames are 10 ms at the default -frate 100. */
const FRAME_MS = 10;
const FILLERS = new Set(['<s>', '</s>', '<sil>', '[NOISE]', '[noise]', '<unk>', '[SPEECH]', '[BREATH]', '[COUGH]', '[UM]', '[UH]', '[SMACK]']);

type Ptr = bigint;
type AsyncFn = { async: (...args: unknown[]) => void } & ((...args: unknown[]) => unknown);

interface SphinxApi {
  cmd_ln_parse_r: AsyncFn;
  ps_args: AsyncFn;
  ps_init: AsyncFn;
  ps_free: AsyncFn;
  ps_start_utt: AsyncFn;
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
  ckd_free: AsyncFn;
  logmath_exp: AsyncFn;
  /** Decodes a NUL-terminated C string. */
  cString: (p: Ptr) => string;
  /** glibc's malloc_trim, when the C library has it. */
  malloc_trim: ((pad: number) => number) | null;
}

function call<T>(fn: AsyncFn, ...args: unknown[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    fn.async(...args, (err: unknown, res: T) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(res)));
  });
}

let api: SphinxApi | null = null;
let loadError: string | null = null;

/**
 * Decoder creation and freeing, one at a time in the whole process: ps_init
 * is not known to be thread-safe, and the batch and live pools (and several
 * engines in one test process) warm up at the same time on koffi's worker
 * threads. A heap corruption ("free(): unaligned chunk") was seen there under
 * CI load. Decoding itself stays parallel.
 */
let lifecycle: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
  const next = lifecycle.then(fn, fn);
  lifecycle = next.catch(() => undefined);
  return next;
}

function trimFn(koffi: typeof Koffi): ((pad: number) => number) | null {
  try {
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as unknown as (pad: number) => number;
  } catch {
    return null;
  }
}

/**
 * Gives freed C heap back to the system: a decoder's model tables are many
 * small allocations that glibc would otherwise keep in the process.
 */
function trimHeap(): void {
  api?.malloc_trim?.(0);
}

function loadApi(): SphinxApi | null {
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
      ckd_free: base.func('void ckd_free(void *ptr)') as AsyncFn,
      cString: (p: Ptr) => koffi.decode(p, 'char', -1) as string,
      malloc_trim: trimFn(koffi),
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

class Decoder {
  /** Keyterm words this decoder was prepared with, and what became of each. */
  readonly keyterms = new Map<string, keyof KeytermReport>();
  private chain: Promise<unknown> = Promise.resolve();
  private inUtt = false;
  /** Segment frames count from the decoder's creation, not the utterance's start: samples before this utterance. */
  private samplesBefore = 0;
  private uttSamples = 0;
  constructor(readonly a: SphinxApi, readonly ps: Ptr, readonly lmath: Ptr) {}

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
        words.push({ text: word, start: ((sf[0] ?? 0) - base) * FRAME_MS, end: ((ef[0] ?? 0) - base + 1) * FRAME_MS, confidence: Math.round(confidence * 1000) / 1000 });
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

  async free(): Promise<void> {
    await oneAtATime(() => call<number>(this.a.ps_free, this.ps));
  }
}

/** Why the model in `dir` cannot be used, or null when its files are there. */
function modelProblem(dir: string): string | null {
  for (const f of ['mdef', 'means', 'feat.params'].map((n) => `${dir}/en-us/${n}`).concat([`${dir}/en-us.lm.bin`, `${dir}/cmudict-en-us.dict`])) {
    if (!existsSync(f)) return `PocketSphinx's English model is missing (${f} not found): ${INSTALL_HINT}.`;
  }
  return null;
}

/**
 * Batch (whole-utterance) decoding, tuned on the tuning half of the accuracy
 * corpus (bench/corpus/sweep.ts; held-out figures in bench/accuracy.ts).
 */
export const BATCH_DECODER_ARGS: Readonly<Record<string, string>> = BATCH_ARGS;

/**
 * Live decoding, tuned for latency: no second (flat) pass, so ending a turn
 * costs ~50 ms instead of ~300, and tighter pruning (about 0.15 of a core per
 * session instead of 0.25, same words on our clips).
 */
export const LIVE_DECODER_ARGS: Readonly<Record<string, string>> = { '-fwdflat': 'no', '-maxhmmpf': '1500', '-pl_window': '10', '-topn': '2', '-maxwpf': '5', '-remove_silence': 'no' };

export interface SphinxOptions {
  /** The model folder (default Debian's /usr/share/pocketsphinx/model/en-us). */
  modelDir?: string;
  /** The decoder settings (default BATCH_DECODER_ARGS); the model paths and sample rate are always set. */
  preset?: Readonly<Record<string, string>>;
  /** Settings over the preset, e.g. { '-maxhmmpf': '3000' }. */
  args?: Record<string, string>;
  /** Decoders kept for reuse. */
  poolSize?: number;
  /** A pooled decoder unused this long is freed (default 60 s), so an idle engine gives its memory back. */
  idleMs?: number;
}

export class SphinxRecognizer implements Recognizer {
  readonly name = 'pocketsphinx';
  private readonly pool: DecoderPool;
  /** Decoders whose dictionary has a request's keyterms: by term list, never shared with plain requests. */
  private readonly termPools = new Map<string, DecoderPool>();
  private readonly poolSize: number;
  private readonly idleMs: number;
  private readonly argv: string[];
  private readonly modelDir: string;
  private readonly modelError: string | null;

  constructor(opts: SphinxOptions = {}) {
    this.poolSize = opts.poolSize ?? 4;
    this.idleMs = opts.idleMs ?? 60_000;
    this.modelDir = opts.modelDir ?? SPHINX_MODEL_DIR;
    const all: Record<string, string> = {
      '-hmm': `${this.modelDir}/en-us`,
      '-lm': `${this.modelDir}/en-us.lm.bin`,
      '-dict': `${this.modelDir}/cmudict-en-us.dict`,
      '-samprate': String(SAMPLE_RATE),
      // Its silence removal drops frames from the count, so words after a pause got times too early.
      '-remove_silence': 'no',
      ...(opts.preset ?? BATCH_DECODER_ARGS),
      ...opts.args,
    };
    this.argv = Object.entries(all).flat();
    loadApi();
    this.modelError = modelProblem(this.modelDir);
    this.pool = new DecoderPool(this.poolSize, this.idleMs, () => this.newDecoder());
  }

  get available(): boolean {
    return loadApi() !== null && this.modelError === null;
  }

  get unavailableReason(): string | null {
    loadApi();
    return loadError ?? this.modelError;
  }

  private async newDecoder(): Promise<Decoder> {
    const a = loadApi();
    if (!a || this.modelError) throw new Error(loadError ?? this.modelError ?? 'PocketSphinx is not available');
    const argv = this.argv;
    return oneAtATime(async () => {
      const defn = await call<Ptr>(a.ps_args);
      const config = await call<Ptr | null>(a.cmd_ln_parse_r, null, defn, argv.length, argv, 1);
      if (!config) throw new Error('PocketSphinx rejected its configuration');
      const ps = await call<Ptr | null>(a.ps_init, config);
      if (!ps) throw new Error(`PocketSphinx could not load its model from ${this.modelDir}: ${INSTALL_HINT}`);
      const lmath = await call<Ptr>(a.ps_get_logmath, ps);
      return new Decoder(a, ps, lmath);
    });
  }

  /** Creates decoders up to `n` in the pool ahead of use (model load is slow and partly blocks the loop); they too are freed after the idle time. */
  async prewarm(n: number): Promise<void> {
    if (!this.available) return;
    await this.pool.fill(Math.min(n, this.poolSize));
  }

  /** Decoders alive in this recognizer's pools (idle ones only; for tests and the footprint benchmark). */
  get pooledDecoders(): number {
    let n = this.pool.size;
    for (const p of this.termPools.values()) n += p.size;
    return n;
  }

  /** The pool for a request: the plain one, or one whose decoders know the request's keyterms. */
  private poolFor(terms: string[]): DecoderPool {
    const words = keytermWords(terms);
    if (!words.length) return this.pool;
    const key = words.join(' ');
    let pool = this.termPools.get(key);
    if (!pool) {
      pool = new DecoderPool(1, this.idleMs, async () => {
        const d = await this.newDecoder();
        await addWords(d, words);
        return d;
      });
      pool.onEmpty = () => {
        if (this.termPools.get(key) === pool) this.termPools.delete(key);
      };
      // A handful of term lists at most: the oldest goes when a new one arrives.
      if (this.termPools.size >= 4) {
        const [oldKey, old] = this.termPools.entries().next().value as [string, DecoderPool];
        this.termPools.delete(oldKey);
        old.drain();
      }
      this.termPools.set(key, pool);
    }
    return pool;
  }

  /**
   * What the recognizer does with `terms`: words missing from the dictionary
   * are added (ps_add_word) with phones joined from the dictionary words that
   * spell them ("zendesk" = "zen" + "desk"); words it knows need nothing and
   * cannot be weighted further. Uses (and pools) a decoder with those words.
   */
  async prepareKeyterms(terms: string[]): Promise<KeytermReport> {
    const words = keytermWords(terms);
    const report: KeytermReport = { added: [], known: [], skipped: [] };
    if (!words.length || !this.available) return report;
    const pool = this.poolFor(terms);
    const d = await pool.acquire();
    try {
      for (const w of words) {
        const r = d.keyterms.get(w) ?? 'known';
        report[r].push(w);
      }
    } finally {
      pool.give(d);
    }
    return report;
  }

  async openStream(opts: { keyterms?: string[] } = {}): Promise<RecognizerStream> {
    const pool = this.poolFor(opts.keyterms ?? []);
    const d = await pool.acquire();
    let closed = false;
    let samples = 0;
    return {
      get acceptedMs() {
        return Math.round((samples / SAMPLE_RATE) * 1000);
      },
      accept: (pcm) => {
        if (closed) return Promise.reject(new Error('stream closed'));
        samples += pcm.length;
        return d.run(() => d.process(pcm));
      },
      partial: () => d.run(async (): Promise<PartialResult> => ({ text: await d.hyp() })),
      finish: () => d.run(() => d.end()),
      inSpeech: () => d.run(() => d.inSpeech()),
      close: () => {
        if (closed) return;
        closed = true;
        void d.run(async () => {
          await d.end().catch(() => []);
          pool.give(d);
        });
      },
    };
  }

  async recognize(pcm: Int16Array, opts: { keyterms?: string[] } = {}): Promise<RecognizedWord[]> {
    const pool = this.poolFor(opts.keyterms ?? []);
    const d = await pool.acquire();
    try {
      return await d.run(() => d.processFull(pcm));
    } finally {
      void d.run(async () => {
        await d.end().catch(() => []);
        pool.give(d);
      });
    }
  }

  /** Frees every pooled decoder now (decoders in use are freed when they come back). */
  dispose(): void {
    this.pool.drain();
    for (const p of this.termPools.values()) p.drain();
    this.termPools.clear();
  }
}

/** The lower-case words of keyterms as the dictionary spells them ("Acme Corp." → acme, corp); at most 100. */
export function keytermWords(terms: string[]): string[] {
  const out = new Set<string>();
  for (const t of terms) {
    for (const w of t.toLowerCase().split(/[^a-z0-9']+/)) {
      const clean = w.replace(/^'+|'+$/g, '');
      if (clean && /[a-z]/.test(clean)) out.add(clean);
    }
  }
  return [...out].sort().slice(0, 100);
}

/** Adds the words the decoder's dictionary lacks; records on the decoder what became of each. */
async function addWords(d: Decoder, words: string[]): Promise<void> {
  const missing: { word: string; phones: string }[] = [];
  for (const w of words) {
    if ((await d.lookup(w)) !== null) {
      d.keyterms.set(w, 'known');
      continue;
    }
    const phones = await composePhones(d, w);
    if (phones) missing.push({ word: w, phones });
    else d.keyterms.set(w, 'skipped');
  }
  for (let i = 0; i < missing.length; i++) {
    const m = missing[i] as { word: string; phones: string };
    // The search is rebuilt once, after the last word.
    const ok = await d.addWord(m.word, m.phones, i === missing.length - 1);
    d.keyterms.set(m.word, ok ? 'added' : 'skipped');
  }
}

/**
 * Phones for a word the dictionary lacks, from dictionary words that spell it
 * end to end with the fewest pieces, each at least two letters
 * ("kubernetes" = "kube" + "r" ... is refused; "zendesk" = "zen" + "desk").
 * PocketSphinx 5prealpha has no letter-to-sound rules in its API.
 */
async function composePhones(d: Decoder, word: string): Promise<string | null> {
  const n = word.length;
  const cache = new Map<string, string | null>();
  const look = async (piece: string): Promise<string | null> => {
    if (!cache.has(piece)) cache.set(piece, piece.length >= 2 ? await d.lookup(piece) : null);
    return cache.get(piece) ?? null;
  };
  // best[i]: fewest pieces spelling word[0, i), with their phones.
  const best: ({ pieces: number; phones: string[] } | null)[] = Array.from({ length: n + 1 }, () => null);
  best[0] = { pieces: 0, phones: [] };
  for (let i = 1; i <= n; i++) {
    for (let j = Math.max(0, i - 12); j < i; j++) {
      const prev = best[j];
      if (!prev) continue;
      const ph = await look(word.slice(j, i));
      if (ph === null) continue;
      const cur = best[i];
      if (!cur || prev.pieces + 1 < cur.pieces) best[i] = { pieces: prev.pieces + 1, phones: [...prev.phones, ph] };
    }
  }
  const done = best[n];
  // More than three pieces is guessing, not a pronunciation.
  return done && done.pieces <= 3 ? done.phones.join(' ') : null;
}

/**
 * Idle decoders of one kind, at most `size`; one unused for `idleMs` is
 * freed (with the C heap trimmed), so memory returns after work.
 */
class DecoderPool {
  private idle: { d: Decoder; since: number }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private draining = false;
  onEmpty: (() => void) | null = null;

  constructor(
    private readonly max: number,
    private readonly idleMs: number,
    private readonly make: () => Promise<Decoder>,
  ) {}

  get size(): number {
    return this.idle.length;
  }

  async acquire(): Promise<Decoder> {
    this.draining = false;
    return this.idle.pop()?.d ?? (await this.make());
  }

  async fill(n: number): Promise<void> {
    while (this.idle.length < n) this.give(await this.make());
  }

  give(d: Decoder): void {
    if (this.draining || this.idle.length >= this.max) {
      void freeDecoders([d]);
      return;
    }
    this.idle.push({ d, since: Date.now() });
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || !this.idle.length) return;
    const oldest = Math.min(...this.idle.map((e) => e.since));
    this.timer = setTimeout(() => this.sweep(), Math.max(10, oldest + this.idleMs - Date.now()));
    this.timer.unref();
  }

  private sweep(): void {
    this.timer = null;
    const now = Date.now();
    const stale = this.idle.filter((e) => now - e.since >= this.idleMs);
    this.idle = this.idle.filter((e) => now - e.since < this.idleMs);
    if (stale.length) void freeDecoders(stale.map((e) => e.d));
    if (this.idle.length) this.schedule();
    else this.onEmpty?.();
  }

  drain(): void {
    this.draining = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const all = this.idle.splice(0).map((e) => e.d);
    if (all.length) void freeDecoders(all);
  }
}

async function freeDecoders(ds: Decoder[]): Promise<void> {
  await Promise.all(ds.map((d) => d.run(() => d.free())));
  trimHeap();
}
