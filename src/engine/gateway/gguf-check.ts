/**
 * Reads a GGUF file's header, metadata and tensor table (never its weights)
 * and checks what llama.cpp needs before native code touches the file: a
 * missing `<arch>.feed_forward_length` or `<arch>.attention.head_count`
 * aborts the whole process inside llama.cpp, so such files are refused here
 * with a message that says what is wrong. Every read is bounded.
 */
import { FileWindow } from '../models/file-window';
import { FileRefusedError, openRegular } from '../models/regular-file';

export interface GgufInfo {
  version: number;
  architecture: string;
  name: string | null;
  contextLength: number;
  embeddingLength: number;
  blockCount: number;
  headCount: number;
  headCountKv: number;
  /** Bytes the file must have to hold every tensor (null when a tensor type's size is not known here). */
  neededBytes: number | null;
  fileBytes: number;
  tensorCount: number;
  chatTemplate: boolean;
}

export class GgufError extends Error {}

/** Metadata arrays longer than this are skipped, not read (a vocabulary has about 150,000 entries). */
const MAX_ARRAY = 10_000_000;
const MAX_STRING = 16 * 1024 * 1024;
const MAX_KV = 100_000;
const MAX_TENSORS = 1_000_000;
/** Metadata and tensor table are read from at most this many bytes. */
const MAX_HEADER_BYTES = 256 * 1024 * 1024;

/** ggml type → [elements per block, bytes per block], for the types whose layout is fixed and well known. */
const TYPE_SIZE: Record<number, [number, number]> = {
  0: [1, 4], // F32
  1: [1, 2], // F16
  2: [32, 18], // Q4_0
  3: [32, 20], // Q4_1
  6: [32, 22], // Q5_0
  7: [32, 24], // Q5_1
  8: [32, 34], // Q8_0
  10: [256, 84], // Q2_K
  11: [256, 110], // Q3_K
  12: [256, 144], // Q4_K
  13: [256, 176], // Q5_K
  14: [256, 210], // Q6_K
  30: [1, 2], // BF16
};

/** The GGUF reader: the shared file window with GGUF's errors, and the format's little-endian numbers and strings. */
class Reader extends FileWindow {
  constructor(fh: ConstructorParameters<typeof FileWindow>[0], size: number) {
    super(
      fh,
      size,
      {
        end: () => new GgufError(`the file ends at byte ${size} inside its metadata: it is truncated or not a GGUF model`),
        short: () => new GgufError('the file could not be read to the end of its metadata'),
        budget: () => new GgufError('its metadata is larger than 256 MiB, which no real model has'),
      },
      MAX_HEADER_BYTES,
    );
  }
  async u32(): Promise<number> {
    return (await this.need(4)).readUInt32LE(0);
  }
  async i32(): Promise<number> {
    return (await this.need(4)).readInt32LE(0);
  }
  async u64(): Promise<number> {
    const v = (await this.need(8)).readBigUInt64LE(0);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new GgufError('a length in its metadata is impossibly large');
    return Number(v);
  }
  async str(): Promise<string> {
    const n = await this.u64();
    if (n > MAX_STRING) throw new GgufError(`a metadata string claims ${n} bytes`);
    return (await this.need(n)).toString('utf8');
  }
}

const SCALAR_BYTES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

async function readValue(r: Reader, type: number, depth = 0): Promise<unknown> {
  switch (type) {
    case 4:
      return r.u32();
    case 5:
      return r.i32();
    case 8:
      return r.str();
    case 9: {
      if (depth > 2) throw new GgufError('metadata arrays nest too deeply');
      const et = await r.u32();
      const n = await r.u64();
      if (n > MAX_ARRAY) throw new GgufError(`a metadata array claims ${n} entries`);
      const sz = SCALAR_BYTES[et];
      if (sz !== undefined) {
        r.skip(n * sz);
        return { length: n };
      }
      if (et === 8) {
        for (let i = 0; i < n; i++) r.skip(await r.u64());
        return { length: n };
      }
      if (et === 9) {
        for (let i = 0; i < n; i++) await readValue(r, 9, depth + 1);
        return { length: n };
      }
      throw new GgufError(`a metadata array has an unknown element type ${et}`);
    }
    case 10: {
      return r.u64();
    }
    default: {
      const sz = SCALAR_BYTES[type];
      if (sz === undefined) throw new GgufError(`a metadata value has an unknown type ${type}`);
      r.skip(sz);
      return null;
    }
  }
}

/** Reads and checks the file; throws GgufError with a sentence on what is wrong. */
export async function checkGguf(path: string): Promise<GgufInfo> {
  let opened: Awaited<ReturnType<typeof openRegular>>;
  try {
    // Regular files only, as the speech models' checks: a FIFO would hang the open, a link could lead out of the model's folder.
    opened = await openRegular(path);
  } catch (err) {
    if (err instanceof FileRefusedError)
      throw new GgufError(err.what === 'missing' ? 'the model file is missing' : `the model file is ${err.what}, not a regular file`);
    throw new GgufError(`the model file cannot be opened (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const { fh, size } = opened;
  try {
    const r = new Reader(fh, size);
    if (size < 24) throw new GgufError(`the file has only ${size} bytes: it is not a GGUF model`);
    const magic = (await r.need(4)).toString('latin1');
    if (magic !== 'GGUF')
      throw new GgufError('the file does not start with "GGUF": it is not a GGUF model (a .bin, .safetensors or .onnx file needs converting first)');
    const version = await r.u32();
    if (version < 2 || version > 3) throw new GgufError(`it is GGUF version ${version}; llama.cpp reads versions 2 and 3`);
    const tensorCount = await r.u64();
    const kvCount = await r.u64();
    if (tensorCount > MAX_TENSORS || kvCount > MAX_KV) throw new GgufError('its header claims an impossible number of tensors or metadata keys');
    const meta = new Map<string, unknown>();
    for (let i = 0; i < kvCount; i++) {
      const key = await r.str();
      const type = await r.u32();
      const value = await readValue(r, type);
      meta.set(key, value);
    }
    const arch = meta.get('general.architecture');
    if (typeof arch !== 'string' || !arch) throw new GgufError('its metadata has no general.architecture');
    const num = (key: string, required: boolean): number => {
      const v = meta.get(key);
      if (typeof v === 'number' && v > 0) return v;
      if (required) throw new GgufError(`its metadata has no ${key} (llama.cpp cannot run a ${arch} model without it)`);
      return 0;
    };
    const contextLength = num(`${arch}.context_length`, true);
    const embeddingLength = num(`${arch}.embedding_length`, true);
    const blockCount = num(`${arch}.block_count`, true);
    num(`${arch}.feed_forward_length`, true);
    const headCount = num(`${arch}.attention.head_count`, true);
    const headCountKv = num(`${arch}.attention.head_count_kv`, false) || headCount;
    if (typeof meta.get('tokenizer.ggml.model') !== 'string') throw new GgufError('its metadata has no tokenizer.ggml.model');
    const tokens = meta.get('tokenizer.ggml.tokens') as { length: number } | undefined;
    if (!tokens || typeof tokens.length !== 'number' || tokens.length < 1) throw new GgufError('its metadata has no tokenizer.ggml.tokens (a vocabulary)');
    const alignment = typeof meta.get('general.alignment') === 'number' ? (meta.get('general.alignment') as number) : 32;
    if (alignment < 1 || alignment > 1 << 20 || (alignment & (alignment - 1)) !== 0)
      throw new GgufError(`general.alignment ${alignment} is not a power of two`);
    let end = 0;
    let known = true;
    for (let i = 0; i < tensorCount; i++) {
      await r.str();
      const nd = await r.u32();
      if (nd < 1 || nd > 4) throw new GgufError(`a tensor has ${nd} dimensions`);
      let elements = 1;
      for (let d = 0; d < nd; d++) elements *= await r.u64();
      const type = await r.u32();
      const offset = await r.u64();
      const ts = TYPE_SIZE[type];
      if (!ts) known = false;
      else end = Math.max(end, offset + Math.ceil(elements / ts[0]) * ts[1]);
    }
    const dataStart = Math.ceil(r.pos / alignment) * alignment;
    const neededBytes = known ? dataStart + end : null;
    if (neededBytes !== null && size < neededBytes)
      throw new GgufError(`the file has ${size} bytes but its tensors need ${neededBytes}: it is truncated (an interrupted download?)`);
    const name = meta.get('general.name');
    return {
      version,
      architecture: arch,
      name: typeof name === 'string' ? name : null,
      contextLength,
      embeddingLength,
      blockCount,
      headCount,
      headCountKv,
      neededBytes,
      fileBytes: size,
      tensorCount,
      chatTemplate: typeof meta.get('tokenizer.chat_template') === 'string',
    };
  } finally {
    await fh.close();
  }
}
