/**
 * An installed sherpa-onnx model behind the engine's Recognizer interface. Every load and decode runs in
 * the native worker child (native/child-host.ts), so a model that crashes sherpa-onnx fails its job with
 * a clear error and the engine keeps answering. Offline models decode whole clips (VAD segments, ≤ 30 s);
 * a streaming transducer decodes live audio as it comes.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { ModelManifest } from '../../../shared/models/catalog';
import type { NativeChild } from '../../native/child-host';
import type { KeytermReport, PartialResult, RecognizedWord, Recognizer, RecognizerStream } from '../types';
import type { SherpaResult } from './child-asr';
import { bpeVocabFile, hotwordsForInSlices, isTransducer, offlineConfig, onlineConfig, type DecodeOptions } from './config';
import type { CheckedModel } from './validate';
import { spreadWords, wordsFromTokens } from './words';

/** What the registry hands a recognizer: the model, checked afresh when its files change. */
export interface LocalModel {
  readonly manifest: ModelManifest;
  /** The checked files; throws when the model was deleted or its files are unusable. */
  current(): Promise<CheckedModel>;
  /** Marks `key` (a loaded recognizer in the child) as used now; the registry releases it when idle. */
  touch(key: string): void;
}

const DECODE_TIMEOUT_MS = 5 * 60_000;

/** The longest clip (samples) a family decodes at once. */
const LONGEST_CLIP: Partial<Record<ModelManifest['family'], number>> = {
  whisper: 30 * 16000,
  moonshine: 30 * 16000,
  'moonshine-v2': 30 * 16000,
  'sense-voice': 30 * 16000,
};

/** The model failed to load or decode (its worker said why, or died): the model's fault, not the engine's. */
export class LocalModelError extends Error {}

/** Runs `fn`, turning the worker's errors into LocalModelError naming the model. */
async function inWorker<T>(id: string, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new LocalModelError(
      `The speech model ${id} failed to ${what}: ${why}. The engine is fine; delete the model and download it again in Settings → Models, or choose another.`,
    );
  }
}

export class SherpaRecognizer implements Recognizer {
  readonly available = true;
  readonly unavailableReason = null;
  /** Whether the model's words carry their own times; otherwise they are spread over each segment (approximate). */
  readonly timedWords: boolean;
  /** Whether the model writes its own punctuation and capitals (Parakeet), so ours is not added. */
  punctuates = false;
  private lastTerms: { terms: string; hotwords: string } | null = null;

  constructor(
    private readonly model: LocalModel,
    private readonly child: NativeChild,
    /** Whisper: the language to transcribe, '' to detect. */
    private readonly language?: string,
  ) {
    this.timedWords = model.manifest.wordTimings === 'words';
  }

  get name(): string {
    return this.model.manifest.id;
  }

  get streaming(): boolean {
    return this.model.manifest.family === 'streaming-transducer';
  }

  private key(c: CheckedModel, o: DecodeOptions): string {
    // A streaming recognizer holds its hotwords in its config, so each set of them is a recognizer of its own.
    const hotwords = o.hotwords ? createHash('sha256').update(o.hotwords).digest('hex').slice(0, 16) : '';
    return `${this.model.manifest.id}|${c.signature}|${o.beam ? 'beam' : 'greedy'}|${o.language ?? ''}|${hotwords}`;
  }

  /** The keyterms as hotwords (raw words, '/' between phrases) and the bpe.vocab sherpa-onnx splits them with; none for other families. */
  private async hotwords(c: CheckedModel, keyterms?: string[]): Promise<{ hotwords: string; bpeVocab?: string }> {
    if (!keyterms?.length || !isTransducer(this.model.manifest)) return { hotwords: '' };
    // Keyed by the files too: a model replaced under the same name has other tokens.
    const terms = `${c.signature}\n${keyterms.join('\n')}`;
    if (this.lastTerms?.terms !== terms) this.lastTerms = { terms, hotwords: (await hotwordsForInSlices(keyterms, c.tokens)).hotwords };
    const hotwords = this.lastTerms.hotwords;
    return hotwords ? { hotwords, bpeVocab: await bpeVocabFile(c.tokens) } : { hotwords };
  }

  /** Loads the model in the worker ahead of use (validating it first). */
  async prewarm(): Promise<void> {
    const c = await this.model.current();
    if (this.streaming) return;
    const o = { language: this.language };
    const key = this.key(c, o);
    this.model.touch(key);
    const config = offlineConfig(this.model.manifest, c, o);
    await inWorker(this.name, 'load', () => this.child.request('asr.load', { key, config }, { timeoutMs: DECODE_TIMEOUT_MS }));
  }

  async recognize(pcm: Int16Array, opts: { keyterms?: string[] } = {}): Promise<RecognizedWord[]> {
    // Whisper (and Moonshine) decode at most 30 s at once: a longer clip (a live turn that never paused) goes in pieces.
    const max = LONGEST_CLIP[this.model.manifest.family];
    if (max === undefined || pcm.length <= max) return this.recognizeClip(pcm, opts);
    const out: RecognizedWord[] = [];
    for (let at = 0; at < pcm.length; at += max) {
      const ms = at / 16;
      for (const w of await this.recognizeClip(pcm.subarray(at, at + max), opts)) out.push({ ...w, start: w.start + ms, end: w.end + ms });
    }
    return out;
  }

  private async recognizeClip(pcm: Int16Array, opts: { keyterms?: string[] }): Promise<RecognizedWord[]> {
    const c = await this.model.current();
    const { hotwords, bpeVocab } = await this.hotwords(c, opts.keyterms);
    const o: DecodeOptions = { beam: hotwords !== '', language: this.language, bpeVocab };
    const key = this.key(c, o);
    this.model.touch(key);
    const config = offlineConfig(this.model.manifest, c, o);
    const r = await inWorker(this.name, 'decode', () =>
      this.child.request<SherpaResult>('asr.decode', { key, config, pcm, ...(hotwords ? { hotwords } : {}) }, { timeoutMs: DECODE_TIMEOUT_MS }),
    );
    this.model.touch(key);
    return this.toWords(r, (pcm.length / 16000) * 1000);
  }

  private toWords(r: SherpaResult, clipMs: number): RecognizedWord[] {
    if (/[.,?!]/.test(r.text ?? '') && /[a-z]/.test(r.text ?? '')) this.punctuates = true;
    const timed = this.timedWords ? wordsFromTokens(r, clipMs) : [];
    return timed.length > 0 || !r.text?.trim() ? timed : spreadWords(r.text, clipMs);
  }

  async prepareKeyterms(keyterms: string[]): Promise<KeytermReport> {
    if (!isTransducer(this.model.manifest))
      return { added: [], known: [], skipped: keyterms.flatMap((t) => t.split(/\s+/).filter(Boolean)), by: 'unsupported' };
    const c = await this.model.current();
    const { added, skipped } = await hotwordsForInSlices(keyterms, c.tokens);
    return { added, known: [], skipped, by: 'hotwords' };
  }

  /**
   * A live stream: a streaming transducer's session in the worker, or an offline model decoding each utterance
   * at its end. `onSlow` is called once if decoding runs slower than real time (the captions would fall behind).
   */
  async openStream(opts: { keyterms?: string[]; onSlow?: (rtf: number) => void; slowRtf?: number } = {}): Promise<RecognizerStream> {
    const pace = new Pace(opts.onSlow, opts.slowRtf);
    if (!this.streaming) return new BufferedStream(this, pace, opts.keyterms);
    const c = await this.model.current();
    const { hotwords, bpeVocab } = await this.hotwords(c, opts.keyterms);
    // One phrase a line: the recognizer's hotwordsBuf, which every stream it creates starts with.
    const o: DecodeOptions = hotwords ? { beam: true, bpeVocab, hotwords: hotwords.split('/').join('\n') } : {};
    const key = this.key(c, o);
    this.model.touch(key);
    const session = randomUUID();
    const config = onlineConfig(c, o);
    await inWorker(this.name, 'load', () => this.child.request('asr.open', { key, config, session }, { timeoutMs: DECODE_TIMEOUT_MS }));
    return new OnlineSession(this.child, session, pace, () => this.model.touch(key));
  }

  /** The warning of a transcript whose word times were spread rather than given by the model. */
  approximateNote(): string {
    return `Word times are approximate: the model ${this.name} gives none, so each word's time is spread over its speech segment by its length.`;
  }

  dispose(): void {
    // The registry releases the model's recognizers in the worker.
  }
}

/** Decoding time against audio time of a live stream; says once when decoding is slower than real time. */
class Pace {
  private audioMs = 0;
  private busyMs = 0;
  private said = false;
  constructor(
    private readonly onSlow?: (rtf: number) => void,
    /** Above this ratio it is slow: 1 is real time; 0 counts any decoding (tests). */
    private readonly limit = 1,
  ) {}
  /** Times `fn`, which decodes `audioMs` of audio. */
  async time<T>(audioMs: number, fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.busyMs += performance.now() - t0;
      this.audioMs += audioMs;
      const rtf = this.busyMs / Math.max(1, this.audioMs);
      // Judged over at least 3 s of audio, so one cold start does not count.
      if (!this.said && this.audioMs >= 3000 && rtf > this.limit) {
        this.said = true;
        this.onSlow?.(Math.round(rtf * 100) / 100);
      }
    }
  }
}

/** A live stream over an offline model: audio is kept and decoded at each utterance's end. */
class BufferedStream implements RecognizerStream {
  private chunks: Int16Array[] = [];
  private total = 0;
  acceptedMs = 0;
  constructor(
    private readonly rec: SherpaRecognizer,
    private readonly pace: Pace,
    private readonly keyterms?: string[],
  ) {}
  accept(pcm: Int16Array): Promise<void> {
    this.chunks.push(pcm.slice());
    this.total += pcm.length;
    this.acceptedMs += (pcm.length / 16000) * 1000;
    return Promise.resolve();
  }
  partial(): Promise<PartialResult> {
    return Promise.resolve({ text: '' });
  }
  async finish(): Promise<RecognizedWord[]> {
    const pcm = new Int16Array(this.total);
    let at = 0;
    for (const c of this.chunks) {
      pcm.set(c, at);
      at += c.length;
    }
    this.chunks = [];
    this.total = 0;
    return pcm.length ? this.pace.time((pcm.length / 16000) * 1000, () => this.rec.recognize(pcm, { keyterms: this.keyterms })) : [];
  }
  inSpeech(): Promise<boolean> {
    return Promise.resolve(false);
  }
  close(): void {
    this.chunks = [];
  }
}

/** A live session of a streaming transducer in the worker. Calls are serialized. */
class OnlineSession implements RecognizerStream {
  acceptedMs = 0;
  /** Audio accepted since the utterance began (ms), for the words' times. */
  private utteranceMs = 0;
  private last: SherpaResult & { endpoint?: boolean } = { text: '', tokens: [], timestamps: [] };
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  constructor(
    private readonly child: NativeChild,
    private readonly session: string,
    private readonly pace: Pace,
    private readonly touch: () => void,
  ) {}

  private run<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.queue.then(fn);
    this.queue = p.catch(() => undefined);
    return p;
  }

  accept(pcm: Int16Array): Promise<void> {
    this.acceptedMs += (pcm.length / 16000) * 1000;
    this.utteranceMs += (pcm.length / 16000) * 1000;
    return this.run(async () => {
      this.touch();
      this.last = await this.pace.time((pcm.length / 16000) * 1000, () =>
        this.child.request('asr.accept', { session: this.session, pcm: pcm.slice() }, { timeoutMs: 60_000 }),
      );
    });
  }

  partial(): Promise<PartialResult> {
    return this.run(() => Promise.resolve({ text: (this.last.text ?? '').trim().toLowerCase(), words: wordsFromTokens(this.last, this.utteranceMs) }));
  }

  finish(): Promise<RecognizedWord[]> {
    return this.run(async () => {
      const r = await this.child.request<SherpaResult>('asr.finish', { session: this.session }, { timeoutMs: 60_000 });
      const words = wordsFromTokens(r, this.utteranceMs);
      this.utteranceMs = 0;
      this.last = { text: '', tokens: [], timestamps: [] };
      return words;
    });
  }

  inSpeech(): Promise<boolean> {
    return Promise.resolve((this.last.text ?? '').trim().length > 0 && !this.last.endpoint);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    void this.run(() => this.child.request('asr.close', { session: this.session }).catch(() => undefined));
  }
}
