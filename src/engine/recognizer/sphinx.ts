/**
 * The PocketSphinx recognizer: decoder settings, pools of decoders (a stream
 * keeps one resident, closing returns it; idle ones are freed), keyterms.
 * The binding and the decoder itself are in ./sphinx-decoder.ts.
 */
import { existsSync } from 'node:fs';
import { DecoderPool } from './decoder-pool';
import { addWords, keytermWords } from './keyterms';
import { call, Decoder, INSTALL_HINT, loadApi, oneAtATime, sphinxLoadError, type Ptr } from './sphinx-decoder';
import type { KeytermReport, PartialResult, RecognizedWord, Recognizer, RecognizerStream, SpeakerTransform } from './types';
import { SAMPLE_RATE } from './types';

export { cleanSphinxWord } from './sphinx-decoder';
export { keytermWords } from './keyterms';

export const SPHINX_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

/**
 * Batch decoder settings: phone-loop lookahead and an HMM cap per frame took
 * the RTF on LibriVox clips from ~0.7 to ~0.22. The decoder sweep of issue 16
 * (bench/corpus/sweep.ts, tuning half) kept them: wider caps or beams
 * (-maxhmmpf 4000, -beam 1e-60) cost nearly twice the CPU for ≤ 2 points,
 * -lw 8/10 and -bestpath no read worse, and -fwdflat no (better on the tuning
 * half and cheaper) loses "call me" in the 24 kbps MP3 sentence. CMN is
 * already per utterance (-cmn batch, from the model's feat.params).
 */
const BATCH_ARGS: Record<string, string> = { '-pl_window': '5', '-maxhmmpf': '2000' };

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
export const LIVE_DECODER_ARGS: Readonly<Record<string, string>> = {
  '-fwdflat': 'no',
  '-maxhmmpf': '1500',
  '-pl_window': '10',
  '-topn': '2',
  '-maxwpf': '5',
  '-remove_silence': 'no',
};

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
  /**
   * Streams opened `onFirstUse` (live sessions) take their decoder when they
   * first hear speech. While such streams wait, up to this many idle decoders
   * are made ready in the background (default 0), so speech finds one warm;
   * ones never used are freed when no stream waits any more.
   */
  spares?: number;
  /** Decoders in streams and idle together never exceed this when making spares (default: no bound). */
  maxDecoders?: number;
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
  private readonly spares: number;
  private readonly maxDecoders: number;
  /** Plain streams opened on first use that have no decoder yet; plain decoders in streams; spares being made; spares made and not yet used. */
  private waiting = 0;
  private busy = 0;
  private making: Promise<void> | null = null;
  private unusedSpares = 0;

  constructor(opts: SphinxOptions = {}) {
    this.poolSize = opts.poolSize ?? 4;
    this.idleMs = opts.idleMs ?? 60_000;
    this.modelDir = opts.modelDir ?? SPHINX_MODEL_DIR;
    this.spares = opts.spares ?? 0;
    this.maxDecoders = opts.maxDecoders ?? Infinity;
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
    return sphinxLoadError() ?? this.modelError;
  }

  private async newDecoder(): Promise<Decoder> {
    const a = loadApi();
    if (!a || this.modelError) throw new Error(sphinxLoadError() ?? this.modelError ?? 'PocketSphinx is not available');
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

  /** Whether a spare decoder is being made now (for tests). */
  get makingSpare(): boolean {
    return this.making !== null;
  }

  /** Decoders alive in this recognizer's pools (idle ones only; for tests and the footprint benchmark). */
  get pooledDecoders(): number {
    let n = this.pool.size;
    for (const p of this.termPools.values()) n += p.size;
    return n;
  }

  /**
   * The pool for a request: the plain one, or one whose decoders know the
   * request's keyterms; `adapted` ones for decoding with speaker transforms.
   * A decoder that has carried a transform never returns to a plain pool:
   * undoing it (the identity transform re-reads the model's means) does not
   * give back the model exactly as loaded (other words came out in tests).
   */
  private poolFor(terms: string[], adapted = false): DecoderPool {
    const words = keytermWords(terms);
    if (!words.length && !adapted) return this.pool;
    const key = `${adapted ? 'adapted:' : ''}${words.join(' ')}`;
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

  /**
   * A stream with a decoder of its own. `onFirstUse`: the decoder is taken
   * when the stream is first used (with a voice detector in front, when
   * speech starts), so a session that never speaks holds none (a decoder is
   * 70-90 MB); spares made ahead (`spares`) make that take immediate.
   */
  async openStream(opts: { keyterms?: string[]; onFirstUse?: boolean } = {}): Promise<RecognizerStream> {
    const pool = this.poolFor(opts.keyterms ?? []);
    if (!opts.onFirstUse) return this.streamOn(pool, await this.take(pool));
    if (!this.available) throw new Error(this.unavailableReason ?? 'PocketSphinx is not available');
    const plain = pool === this.pool;
    let waiting = plain;
    const stopWaiting = () => {
      if (!waiting) return;
      waiting = false;
      this.waiting--;
      if (this.waiting === 0 && this.unusedSpares > 0) {
        // Made for sessions that never spoke: freed now rather than after the idle time.
        pool.shrink(pool.size - this.unusedSpares);
        this.unusedSpares = 0;
      }
    };
    if (plain) {
      this.waiting++;
      this.makeSpares();
    }
    let opening: Promise<RecognizerStream> | null = null;
    let closed = false;
    let samples = 0;
    const start = (): Promise<RecognizerStream> =>
      (opening ??= (async () => {
        // A spare on its way is never slower than a decoder of our own (creation is one at a time).
        while (plain && !pool.size && this.making) await this.making;
        const d = await this.take(pool);
        stopWaiting();
        this.makeSpares();
        return this.streamOn(pool, d);
      })());
    const via = <T>(fn: (s: RecognizerStream) => Promise<T>): Promise<T> =>
      closed ? Promise.reject(new Error('stream closed')) : start().then((s) => (closed ? Promise.reject(new Error('stream closed')) : fn(s)));
    return {
      get acceptedMs() {
        return Math.round((samples / SAMPLE_RATE) * 1000);
      },
      accept: (pcm) => {
        samples += pcm.length;
        const copy = opening ? pcm : new Int16Array(pcm);
        return via((s) => s.accept(copy));
      },
      partial: () => via((s) => s.partial()),
      finish: () => via((s) => s.finish()),
      inSpeech: () => via((s) => s.inSpeech()),
      close: () => {
        if (closed) return;
        closed = true;
        stopWaiting();
        opening?.then((s) => s.close()).catch(() => undefined);
      },
    };
  }

  /** A decoder from `pool`, counted while in a plain stream; an idle one taken while spares were unused uses one up. */
  private async take(pool: DecoderPool): Promise<Decoder> {
    const hadIdle = pool.size > 0;
    const d = await pool.acquire();
    if (pool === this.pool) {
      this.busy++;
      if (hadIdle && this.unusedSpares > 0) this.unusedSpares--;
    }
    return d;
  }

  /** Makes idle plain decoders, one at a time, until waiting streams have `spares` of them (within `maxDecoders`). */
  private makeSpares(): void {
    if (this.making || !this.available) return;
    if (this.pool.size >= Math.min(this.spares, this.waiting) || this.busy + this.pool.size >= this.maxDecoders) return;
    this.making = this.newDecoder()
      .then((d) => {
        this.pool.give(d);
        // Every stream it was made for closed meanwhile without speaking: freed at once.
        if (this.waiting === 0) this.pool.shrink(this.pool.size - 1);
        else this.unusedSpares++;
      })
      .catch(() => undefined)
      .finally(() => {
        this.making = null;
        this.makeSpares();
      });
  }

  private streamOn(pool: DecoderPool, d: Decoder): RecognizerStream {
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
        if (pool === this.pool) this.busy--;
        void d.run(async () => {
          await d.end().catch(() => []);
          pool.give(d);
        });
      },
    };
  }

  async recognize(pcm: Int16Array, opts: { keyterms?: string[]; speaker?: SpeakerTransform } = {}): Promise<RecognizedWord[]> {
    const pool = this.poolFor(opts.keyterms ?? [], opts.speaker !== undefined);
    const d = await pool.acquire();
    try {
      // An adapted decoder may carry another recording's transform: applying one re-reads the means first.
      if (opts.speaker) await d.run(() => d.useTransform(opts.speaker as SpeakerTransform));
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
