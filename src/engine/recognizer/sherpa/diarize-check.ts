/**
 * Checks a segmentation and an embedding model's metadata and output shapes
 * before sherpa-onnx loads them: on 1.13.8 a missing num_classes exits the
 * process inside the constructor, a wrong class or frame count aborts it, a
 * missing framework crashes at the first run and a wrong output_dim silently
 * makes everyone speaker 0. Each finding is a sentence naming the model.
 */
import type { OnnxDim, OnnxTensorInfo } from './onnx-check';

/** What the checks read of an ONNX file (onnx-check.ts walks it without loading it). */
export interface OnnxInfo {
  metadata: Record<string, string>;
  inputs: OnnxTensorInfo[];
  outputs: OnnxTensorInfo[];
}

export class ModelCheckError extends Error {}

/** What diarization needs to know of a segmentation model. */
export interface SegmentationFacts {
  sampleRate: number;
  /** Samples one segmentation window sees. */
  windowSize: number;
  /** Samples per output frame. */
  frameShift: number;
  speakers: number;
}

export interface EmbeddingFacts {
  framework: string;
  dim: number;
}

const FRAMEWORKS = ['wespeaker', '3d-speaker', 'nemo'];
const FEATURE_NORMALIZE = ['', 'global-mean', 'per_feature'];

function intMeta(info: OnnxInfo, key: string, what: string): number {
  const raw = info.metadata[key];
  if (raw === undefined) throw new ModelCheckError(`${what} lacks the metadata ${key}`);
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new ModelCheckError(`${what} has metadata ${key} = ${JSON.stringify(raw.slice(0, 40))}, not a positive integer`);
  return n;
}

function fixed(d: OnnxDim | undefined): number | null {
  return typeof d === 'number' && d > 0 ? d : null;
}

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

/** The powerset classes of `speakers` speakers with at most `maxAtOnce` talking at once (none, each alone, each pair, …). */
export function powersetClasses(speakers: number, maxAtOnce: number): number {
  let n = 0;
  for (let k = 0; k <= maxAtOnce; k++) n += binomial(speakers, k);
  return n;
}

export function checkSegmentation(info: OnnxInfo, name = 'The segmentation model'): SegmentationFacts {
  const sampleRate = intMeta(info, 'sample_rate', name);
  if (sampleRate !== 16000) throw new ModelCheckError(`${name} is made for ${sampleRate} Hz audio; diarization runs at 16000 Hz`);
  const windowSize = intMeta(info, 'window_size', name);
  const frameShift = intMeta(info, 'receptive_field_shift', name);
  const field = intMeta(info, 'receptive_field_size', name);
  const speakers = intMeta(info, 'num_speakers', name);
  const maxAtOnce = intMeta(info, 'powerset_max_classes', name);
  const classes = intMeta(info, 'num_classes', name);
  if (maxAtOnce !== 2) throw new ModelCheckError(`${name} has powerset_max_classes ${maxAtOnce}; sherpa-onnx runs only 2`);
  if (speakers < 2 || speakers > 8) throw new ModelCheckError(`${name} has num_speakers ${speakers}; expected 2 to 8`);
  const want = powersetClasses(speakers, maxAtOnce);
  if (classes !== want) throw new ModelCheckError(`${name} has num_classes ${classes}, but ${speakers} speakers at most 2 at once make ${want}`);
  if (windowSize < 16000 || windowSize > 16000 * 60) throw new ModelCheckError(`${name} has window_size ${windowSize}; expected 1 to 60 s of samples`);
  if (frameShift > windowSize || field > windowSize) throw new ModelCheckError(`${name} has receptive fields larger than its window`);
  const input = info.inputs[0];
  if (!input || (input.shape && input.shape.length !== 3)) throw new ModelCheckError(`${name}'s input is not [1, 1, samples]`);
  const out = info.outputs[0];
  if (!out?.shape || out.shape.length !== 3) throw new ModelCheckError(`${name}'s first output is not [1, frames, classes]`);
  const c = fixed(out.shape[2]);
  if (c !== null && c !== classes) throw new ModelCheckError(`${name}'s output has ${c} classes, but its metadata says ${classes}`);
  const frames = fixed(out.shape[1]);
  if (frames !== null) {
    const covered = frames * frameShift;
    if (Math.abs(covered - windowSize) > Math.max(field, windowSize * 0.1))
      throw new ModelCheckError(`${name}'s output has ${frames} frames of ${frameShift} samples, which do not cover its window of ${windowSize}`);
  }
  return { sampleRate, windowSize, frameShift, speakers };
}

export function checkEmbedding(info: OnnxInfo, name = 'The speaker-embedding model'): EmbeddingFacts {
  const framework = info.metadata.framework ?? '';
  if (!FRAMEWORKS.includes(framework))
    throw new ModelCheckError(
      framework
        ? `${name} is from ${JSON.stringify(framework.slice(0, 40))}; sherpa-onnx runs ${FRAMEWORKS.join(', ')}`
        : `${name} lacks the metadata framework`,
    );
  const dim = intMeta(info, 'output_dim', name);
  const sampleRate = intMeta(info, 'sample_rate', name);
  if (sampleRate !== 16000) throw new ModelCheckError(`${name} is made for ${sampleRate} Hz audio; diarization runs at 16000 Hz`);
  if (!info.metadata.language) throw new ModelCheckError(`${name} lacks the metadata language`);
  const fnt = info.metadata.feature_normalize_type ?? '';
  if (!FEATURE_NORMALIZE.includes(fnt))
    throw new ModelCheckError(`${name} has feature_normalize_type ${JSON.stringify(fnt.slice(0, 40))}, which sherpa-onnx does not know`);
  return framework === 'nemo' ? checkNemoEmbedding(info, name, dim) : checkFbankEmbedding(info, name, framework, dim);
}

/** WeSpeaker and 3D-Speaker: fbank [1, frames, 80] in, the embedding the first output; normalize_samples required. */
function checkFbankEmbedding(info: OnnxInfo, name: string, framework: string, dim: number): EmbeddingFacts {
  const normalize = info.metadata.normalize_samples;
  if (normalize !== '0' && normalize !== '1') throw new ModelCheckError(`${name} lacks the metadata normalize_samples (0 or 1)`);
  const input = info.inputs[0];
  if (!input?.shape || input.shape.length !== 3) throw new ModelCheckError(`${name}'s input is not [1, frames, 80]`);
  const bins = fixed(input.shape[2]);
  if (bins !== null && bins !== 80) throw new ModelCheckError(`${name} takes ${bins} feature bins; sherpa-onnx computes 80`);
  outputDim(info.outputs[0], name, 'first', dim);
  return { framework, dim };
}

/**
 * NeMo (TitaNet and its kin), as k2-fsa/sherpa-onnx scripts/nemo/speaker-verification/export-onnx.py exports
 * them: no normalize_samples (speaker-embedding-extractor-nemo-model.cc never reads it), but feat_dim and the
 * window's size and stride in ms, which it requires; features [1, feat_dim, frames] and a length in; the
 * outputs are logits then the embedding, and sherpa-onnx takes the second.
 */
function checkNemoEmbedding(info: OnnxInfo, name: string, dim: number): EmbeddingFacts {
  const featDim = intMeta(info, 'feat_dim', name);
  intMeta(info, 'window_size_ms', name);
  intMeta(info, 'window_stride_ms', name);
  const input = info.inputs[0];
  if (info.inputs.length < 2 || !input?.shape || input.shape.length !== 3)
    throw new ModelCheckError(`${name}'s inputs are not [1, ${featDim}, frames] and a length`);
  const bins = fixed(input.shape[1]);
  if (bins !== null && bins !== featDim) throw new ModelCheckError(`${name} takes ${bins} feature bins, but its metadata feat_dim says ${featDim}`);
  if (info.outputs.length < 2) throw new ModelCheckError(`${name} has no embedding output (a NeMo model gives logits, then the embedding)`);
  outputDim(info.outputs[1], name, 'second', dim);
  return { framework: 'nemo', dim };
}

function outputDim(out: OnnxTensorInfo | undefined, name: string, which: string, dim: number): void {
  if (!out?.shape || out.shape.length !== 2) throw new ModelCheckError(`${name}'s ${which} output is not [1, dimension]`);
  const d = fixed(out.shape[1]);
  if (d !== null && d !== dim) throw new ModelCheckError(`${name}'s output has ${d} values, but its metadata output_dim says ${dim}`);
}
