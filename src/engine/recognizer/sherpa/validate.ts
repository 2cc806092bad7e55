/**
 * An installed speech model checked before sherpa-onnx reads it: every file its family needs is a regular
 * file inside the model's folder and not empty, each .onnx parses as ONNX with the metadata sherpa-onnx
 * requires of the family (it exits the process when one is missing), and tokens.txt has the blank
 * token where the family needs one. Returns what loading needs (the files' paths, their metadata).
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { MODEL_FILE_ROLES, type ModelManifest } from '../../../shared/models/catalog';
import { ModelFileError, modelFile } from '../../models/folder';
import { FileRefusedError, readCapped } from '../../models/regular-file';
import { checkOnnx, checkOrt, OnnxFileError } from './onnx-check';

/** The model's files are unusable; the message names the model, says which file and why, and what to do. */
export { ModelFileError } from '../../models/folder';

export interface CheckedModel {
  /** Absolute paths by role. */
  paths: Record<string, string>;
  /** metadata_props of each .onnx role. */
  metadata: Record<string, Record<string, string>>;
  /** tokens.txt's symbols, in id order. */
  tokens: string[];
  /** A signature of the files (size and mtime): a replaced model reads differently. */
  signature: string;
}

/** Integer metadata each family's files must carry (sherpa-onnx 1.13.8's readers), by role. */
const REQUIRED_INT: Partial<Record<ModelManifest['family'], Record<string, string[]>>> = {
  'nemo-transducer': { encoder: ['vocab_size', 'subsampling_factor', 'pred_rnn_layers', 'pred_hidden'] },
  'nemo-ctc': { model: ['vocab_size', 'subsampling_factor'] },
  'zipformer-transducer': { decoder: ['vocab_size', 'context_size'] },
  whisper: {
    encoder: [
      'n_mels',
      'n_text_layer',
      'n_text_ctx',
      'n_text_state',
      'n_vocab',
      'sot',
      'eot',
      'blank_id',
      'translate',
      'transcribe',
      'no_timestamps',
      'no_speech',
      'is_multilingual',
    ],
  },
  'streaming-transducer': { decoder: ['vocab_size', 'context_size'] },
  // offline-sense-voice-model.cc; neg_mean and inv_stddev (float lists) are required too.
  'sense-voice': {
    model: [
      'vocab_size',
      'lfr_window_size',
      'lfr_window_shift',
      'normalize_samples',
      'with_itn',
      'without_itn',
      'lang_auto',
      'lang_zh',
      'lang_en',
      'lang_ja',
      'lang_ko',
      'lang_yue',
    ],
  },
  // Moonshine v2 reads no metadata (offline-moonshine-model-v2.cc): its cache shapes come from the decoder's inputs.
};

const STREAMING_TYPES = new Set(['lstm', 'zipformer', 'zipformer2', 'conformer', 'ebranchformer']);
const STREAMING_INT: Record<string, string[]> = {
  lstm: ['num_encoder_layers', 'T', 'decode_chunk_len', 'rnn_hidden_size', 'd_model'],
  zipformer2: ['decode_chunk_len'],
  // Zipformer v1 (e.g. the 20M streaming model): online-zipformer-transducer-model.cc reads these as ints, and
  // encoder_dims, attention_dims, num_encoder_layers, cnn_module_kernels and left_context_len as lists.
  zipformer: ['T', 'decode_chunk_len'],
};

const BLANKS = ['<blk>', '<eps>', '<blank>'];

function fail(m: ModelManifest, why: string): never {
  throw new ModelFileError(m.id, why);
}

function requireInts(m: ModelManifest, role: string, meta: Record<string, string>, keys: string[]): void {
  for (const k of keys) {
    const v = meta[k];
    if (v === undefined) fail(m, `its ${role} lacks the metadata "${k}" (not a ${m.family} export sherpa-onnx can load)`);
    if (!/^-?\d+$/.test(v.trim())) fail(m, `its ${role}'s metadata "${k}" is ${JSON.stringify(v.slice(0, 40))}, not a whole number`);
  }
}

/** Checks `manifest`'s files in `folder`; throws ModelFileError saying what is wrong. */
export async function checkModelFiles(folder: string, m: ModelManifest): Promise<CheckedModel> {
  const roles = MODEL_FILE_ROLES[m.family] as readonly string[];
  const paths: Record<string, string> = {};
  for (const role of roles) {
    const rel = m.files[role];
    if (!rel) fail(m, `its manifest names no ${role} file`);
    paths[role] = await modelFile(folder, m, role);
  }
  const signature = await fileSignature(folder, m);
  const metadata: Record<string, Record<string, string>> = {};
  for (const role of roles) {
    if (role === 'tokens') continue;
    try {
      const path = paths[role] as string;
      metadata[role] = (await (path.endsWith('.ort') ? checkOrt(path) : checkOnnx(path))).metadata;
    } catch (err) {
      if (err instanceof OnnxFileError)
        fail(
          m,
          `its ${role} file ${m.files[role]} is damaged or not an ONNX model (${err.message.replace(/^.* is not a usable ONNX (Runtime )?model: /, '')})`,
        );
      throw err;
    }
  }
  for (const [role, keys] of Object.entries(REQUIRED_INT[m.family] ?? {})) requireInts(m, role, metadata[role] ?? {}, keys);
  if (m.family === 'nemo-ctc' || m.family === 'nemo-transducer') {
    const enc = metadata[m.family === 'nemo-ctc' ? 'model' : 'encoder'] ?? {};
    if (enc.normalize_type !== undefined && !['', 'NA', 'per_feature', 'all_features'].includes(enc.normalize_type))
      fail(m, `its normalize_type ${JSON.stringify(enc.normalize_type.slice(0, 40))} is not one sherpa-onnx knows`);
  }
  if (m.family === 'streaming-transducer') {
    const type = metadata.encoder?.model_type ?? '';
    if (!STREAMING_TYPES.has(type)) fail(m, `its encoder's model_type ${JSON.stringify(type.slice(0, 40))} is not a streaming transducer sherpa-onnx runs`);
    requireInts(m, 'encoder', metadata.encoder ?? {}, STREAMING_INT[type] ?? []);
  }
  const tokens = await readTokens(m, paths.tokens as string);
  if ((m.family === 'nemo-ctc' || m.family === 'nemo-transducer') && !tokens.some((t) => BLANKS.includes(t)))
    fail(m, 'its tokens.txt has no blank token (<blk>)');
  // A joiner wider or narrower than the vocabulary exits or crashes sherpa-onnx; the worker catches that, but say it plainly here.
  const vocab = Number(metadata.encoder?.vocab_size ?? NaN);
  if (m.family === 'nemo-transducer' && vocab + 1 !== tokens.length)
    fail(m, `its tokens.txt has ${tokens.length} tokens where the encoder says ${vocab} plus the blank`);
  return { paths, metadata, tokens, signature };
}

/** The sizes, times and inodes of the family's files: a model replaced under the same name reads differently. */
export async function fileSignature(folder: string, m: ModelManifest): Promise<string> {
  const parts: string[] = [];
  for (const role of MODEL_FILE_ROLES[m.family] as readonly string[]) {
    const st = await stat(resolve(folder, m.files[role] ?? ''));
    parts.push(`${role}:${st.size}:${st.mtimeMs}:${st.ino}`);
  }
  return parts.join('|');
}

/** A real vocabulary is at most a few hundred thousand tokens (Whisper's 51,865, Qwen's 151,646); tokens.txt is read within this. */
const TOKENS_CAP = 16 << 20;

/**
 * tokens.txt: `symbol id` per line, ids 0…n−1, split on any whitespace from the right: upstream's Moonshine
 * export writes `symbol<TAB>id` (k2-fsa/sherpa-onnx `scripts/moonshine/export-onnx.py`, generate_tokens), and
 * sherpa-onnx reads each trimmed line as `iss >> sym >> id`, where a line holding only an id is the space
 * token " " (`sherpa-onnx/csrc/symbol-table.cc`, ReadTokens; both at commit 634265c9b576). An id is at most
 * the number of lines, so a hostile `<blk> 130000000` is refused at once, naming the model, rather than
 * building a 130-million-slot table.
 */
export async function readTokens(m: ModelManifest, file: string): Promise<string[]> {
  let text: string;
  try {
    text = (await readCapped(file, TOKENS_CAP)).bytes.toString('utf8');
  } catch (err) {
    if (err instanceof FileRefusedError) fail(m, /^larger/.test(err.what) ? 'its tokens.txt is larger than any vocabulary' : `its tokens.txt is ${err.what}`);
    throw err;
  }
  const lines = text.split('\n');
  const out: string[] = [];
  for (const [i, raw] of lines.entries()) {
    // ASCII whitespace only, as C++'s stream does: a symbol may itself be a Unicode space (U+00A0, U+3000).
    const line = raw.replace(/^[ \t\r\f\v]+|[ \t\r\f\v]+$/g, '');
    if (!line) continue;
    const cut = line.search(/[ \t\r\f\v][^ \t\r\f\v]*$/);
    const idText = cut < 0 ? line : line.slice(cut + 1);
    const symbol = cut < 0 ? ' ' : line.slice(0, cut).replace(/[ \t\r\f\v]+$/, '');
    // Whisper's tokens.txt holds base64 symbols and ids too; a line without a whole-number id is not a token file.
    if (!/^\d+$/.test(idText)) fail(m, `its tokens.txt line ${i + 1} is not "symbol id"`);
    const id = Number(idText);
    if (id >= lines.length) fail(m, `its tokens.txt line ${i + 1} gives the id ${idText.slice(0, 20)}, more than the file's ${lines.length} lines can hold`);
    out[id] = symbol;
  }
  if (out.length === 0) fail(m, 'its tokens.txt is empty');
  return Array.from(out, (t) => t ?? '');
}
