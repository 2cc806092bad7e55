/**
 * Speech recognition inside the native worker child (sherpa-onnx): recognizers are created on demand from
 * the config each request carries (a fresh child starts empty), kept by key until released, and decode
 * PCM16 sent as binary. Offline decoding is async (decodeAsync); streaming sessions decode in place.
 */
import { createRequire } from 'node:module';

/** What sherpa-onnx answers for one decoded stream. */
export interface SherpaResult {
  text: string;
  tokens: string[];
  timestamps: number[];
  durations?: number[];
  ys_log_probs?: number[];
  /** Streaming results name the per-token log-probabilities so. */
  ys_probs?: number[];
  lang?: string;
}

interface OfflineStream {
  acceptWaveform(w: { samples: Float32Array; sampleRate: number }): void;
  setOption?(key: string, value: string): void;
}
interface OfflineRecognizer {
  createStream(hotwords?: string): OfflineStream;
  decodeAsync(s: OfflineStream): Promise<SherpaResult>;
}
interface OnlineStream {
  acceptWaveform(w: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}
interface OnlineRecognizer {
  /**
   * sherpa-onnx-node 1.13.8 takes no hotwords here (its native createOnlineStream takes the recognizer alone):
   * a live session's hotwords are its recognizer's `hotwordsBuf`, and each stream it creates starts with them.
   */
  createStream(): OnlineStream;
  isReady(s: OnlineStream): boolean;
  decode(s: OnlineStream): void;
  isEndpoint(s: OnlineStream): boolean;
  reset(s: OnlineStream): void;
  getResult(s: OnlineStream): SherpaResult;
}
interface Sherpa {
  OfflineRecognizer: { createAsync(config: unknown): Promise<OfflineRecognizer> };
  OnlineRecognizer: new (config: unknown) => OnlineRecognizer;
}

let sherpa: Sherpa | null = null;
function lib(): Sherpa {
  sherpa ??= createRequire(import.meta.url)('sherpa-onnx-node') as Sherpa;
  return sherpa;
}

const offline = new Map<string, Promise<OfflineRecognizer>>();
const online = new Map<string, OnlineRecognizer>();
const sessions = new Map<string, { key: string; stream: OnlineStream }>();

function floats(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = (pcm[i] as number) / 32768;
  return out;
}

function offlineFor(key: string, config: unknown): Promise<OfflineRecognizer> {
  let r = offline.get(key);
  if (!r) {
    r = lib().OfflineRecognizer.createAsync(config);
    offline.set(key, r);
    // A load that failed is not kept: the next request tries again (the files may have been replaced).
    r.catch(() => offline.delete(key));
  }
  return r;
}

function onlineFor(key: string, config: unknown): OnlineRecognizer {
  let r = online.get(key);
  if (!r) {
    r = new (lib().OnlineRecognizer)(config);
    online.set(key, r);
  }
  return r;
}

/** The current result of a streaming session, after decoding everything ready. */
function drain(rec: OnlineRecognizer, stream: OnlineStream): SherpaResult & { endpoint: boolean } {
  while (rec.isReady(stream)) rec.decode(stream);
  return { ...rec.getResult(stream), endpoint: rec.isEndpoint(stream) };
}

export const handlers = {
  async load(p: { key: string; config: unknown }): Promise<true> {
    await offlineFor(p.key, p.config);
    return true;
  },

  async decode(p: { key: string; config: unknown; pcm: Int16Array; hotwords?: string; language?: string }): Promise<SherpaResult> {
    const rec = await offlineFor(p.key, p.config);
    const stream = p.hotwords ? rec.createStream(p.hotwords) : rec.createStream();
    stream.acceptWaveform({ samples: floats(p.pcm), sampleRate: 16000 });
    return await rec.decodeAsync(stream);
  },

  release(p: { key: string }): boolean {
    // Recognizers are freed by the garbage collector once nothing holds them.
    const had = offline.delete(p.key) || online.delete(p.key);
    for (const [id, s] of sessions) if (s.key === p.key) sessions.delete(id);
    return had;
  },

  open(p: { key: string; config: unknown; session: string }): true {
    const rec = onlineFor(p.key, p.config);
    sessions.set(p.session, { key: p.key, stream: rec.createStream() });
    return true;
  },

  accept(p: { session: string; pcm: Int16Array }): SherpaResult & { endpoint: boolean } {
    const s = sessions.get(p.session);
    const rec = s && online.get(s.key);
    if (!s || !rec) throw new Error('the streaming session is gone (the model was released); open it again');
    s.stream.acceptWaveform({ samples: floats(p.pcm), sampleRate: 16000 });
    return drain(rec, s.stream);
  },

  /** Ends the utterance: tail padding so the last frames decode, the result, and a fresh stream for the next one. */
  finish(p: { session: string }): SherpaResult {
    const s = sessions.get(p.session);
    const rec = s && online.get(s.key);
    if (!s || !rec) throw new Error('the streaming session is gone (the model was released); open it again');
    s.stream.acceptWaveform({ samples: new Float32Array(16000 * 0.5), sampleRate: 16000 });
    const result = drain(rec, s.stream);
    // The next utterance's stream: from the same recognizer, so with the same hotwords.
    s.stream = rec.createStream();
    return result;
  },

  close(p: { session: string }): boolean {
    return sessions.delete(p.session);
  },
};
