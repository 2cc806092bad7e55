/**
 * Turn voiceprints inside the native worker child: sherpa-onnx's SpeakerEmbeddingExtractor over one stretch
 * of 16 kHz audio (a live turn, or a stored recording's turn), loaded on demand and kept for the next one.
 * Used by live speaker labels and by the embeddings route; diarization keeps its own (child-diarize.ts).
 */
import { createRequire } from 'node:module';

/** sherpa-onnx-node's speaker-embedding extractor, as both this and child-diarize.ts use it. */
export interface SherpaStream {
  acceptWaveform(w: { sampleRate: number; samples: Float32Array }): void;
  inputFinished(): void;
}
export interface SherpaExtractor {
  createStream(): SherpaStream;
  compute(stream: SherpaStream, enableExternalBuffer?: boolean): Float32Array;
}
type SherpaModule = { SpeakerEmbeddingExtractor: new (config: unknown) => SherpaExtractor };

const RATE = 16000;
let extractor: { key: string; e: SherpaExtractor } | null = null;

function load(model: string, numThreads: number): SherpaExtractor {
  const key = `${model}|${numThreads}`;
  if (extractor?.key === key) return extractor.e;
  extractor = null;
  const sherpa = createRequire(import.meta.url)('sherpa-onnx-node') as SherpaModule;
  const e = new sherpa.SpeakerEmbeddingExtractor({ model, numThreads, debug: 0 });
  extractor = { key, e };
  return e;
}

export interface EmbedRequest {
  model: string;
  numThreads: number;
  /** 16 kHz mono PCM16, one or more stretches of one voice. */
  parts: Int16Array[];
}

export const handlers = {
  /** The voiceprint of the parts, as a plain Float32Array (copied out of the addon's buffer). */
  embed(p: EmbedRequest): Float32Array {
    const e = load(p.model, p.numThreads);
    const stream = e.createStream();
    for (const part of p.parts) {
      const samples = new Float32Array(part.length);
      for (let i = 0; i < part.length; i++) samples[i] = (part[i] as number) / 32768;
      stream.acceptWaveform({ sampleRate: RATE, samples });
    }
    stream.inputFinished();
    return Float32Array.from(e.compute(stream, false));
  },
};
