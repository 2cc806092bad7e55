/**
 * Checks that a file is an ONNX model before native code reads it: walks the protobuf wire format of the
 * ModelProto and its graph (field headers only; tensor payloads are skipped by position, so a 600 MB
 * encoder costs a few reads) and returns the model's metadata_props. A truncated or garbage file fails here.
 */
import { FileWindow } from '../../models/file-window';
import { FileRefusedError, openRegular } from '../../models/regular-file';

/** The file is not a usable ONNX model; the message says why. */
export class OnnxFileError extends Error {}

const onnxErrors = {
  end: () => new OnnxFileError('it ends in the middle of a field (truncated?)'),
  short: () => new OnnxFileError('it could not be read to its end'),
};

/** Reads a protobuf varint. */
async function varint(r: FileWindow): Promise<number> {
  let v = 0;
  let mul = 1;
  for (let i = 0; i < 10; i++) {
    const b = await r.byte();
    v += (b & 0x7f) * mul;
    if (b < 0x80) return v;
    mul *= 128;
  }
  throw new OnnxFileError('it has a malformed number (not a protobuf file)');
}

interface Field {
  num: number;
  wire: number;
  /** For length-delimited fields: where the payload starts and its length. */
  start: number;
  len: number;
}

/** Reads one field header and skips (or positions at) its payload; `end` bounds it. */
async function field(r: FileWindow, end: number): Promise<Field> {
  const tag = await varint(r);
  const num = Math.floor(tag / 8);
  const wire = tag % 8;
  if (num < 1) throw new OnnxFileError('it has a field numbered 0 (not a protobuf file)');
  let len = 0;
  if (wire === 0) await varint(r);
  else if (wire === 1) len = 8;
  else if (wire === 5) len = 4;
  else if (wire === 2) len = await varint(r);
  else throw new OnnxFileError(`it has a field of wire type ${wire} (not an ONNX model)`);
  const start = r.pos;
  if (start + len > end) throw new OnnxFileError('a field runs past the end of the file (truncated?)');
  r.pos = start + len;
  return { num, wire, start, len };
}

/** The fields of one message occupying [from, to). */
async function fields(r: FileWindow, from: number, to: number): Promise<Field[]> {
  const out: Field[] = [];
  r.pos = from;
  while (r.pos < to) out.push(await field(r, to));
  if (r.pos !== to) throw new OnnxFileError('a message does not end where it should (not an ONNX model)');
  return out;
}

/** A string field's value inside a small message. */
async function text(r: FileWindow, f: Field): Promise<string> {
  r.pos = f.start;
  return (await r.need(f.len)).toString('utf8');
}

export interface OnnxSummary {
  metadata: Record<string, string>;
  inputs: number;
  outputs: number;
  nodes: number;
  /** The graph's inputs and outputs with their declared shapes, in order. */
  inputInfo: OnnxTensorInfo[];
  outputInfo: OnnxTensorInfo[];
}

/** A dimension: a number when fixed, a name (or null) when dynamic. */
export type OnnxDim = number | string | null;

export interface OnnxTensorInfo {
  name: string;
  /** Null when the graph does not say (no tensor type). */
  shape: OnnxDim[] | null;
}

/** A small message held in memory (a ValueInfoProto), read field by field. */
class Bytes {
  constructor(
    private readonly buf: Buffer,
    public pos = 0,
    private readonly end = buf.length,
  ) {}
  get done(): boolean {
    return this.pos >= this.end;
  }
  varint(): number {
    let v = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new OnnxFileError('a graph input or output is cut short');
      const b = this.buf[this.pos++] as number;
      v += (b & 0x7f) * mul;
      if (b < 0x80) return v;
      mul *= 128;
    }
    throw new OnnxFileError('it has a malformed number (not a protobuf file)');
  }
  /** The next field: its number and, for length-delimited ones, a reader over the payload (others are skipped). */
  next(): { num: number; wire: number; value: number; sub: Bytes | null } {
    const tag = this.varint();
    const wire = tag % 8;
    let value = 0;
    let sub: Bytes | null = null;
    if (wire === 0) value = this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 5) this.pos += 4;
    else if (wire === 2) {
      const len = this.varint();
      sub = new Bytes(this.buf, this.pos, this.pos + len);
      this.pos += len;
    } else throw new OnnxFileError(`it has a field of wire type ${wire} (not an ONNX model)`);
    if (this.pos > this.end) throw new OnnxFileError('a graph input or output is cut short');
    return { num: Math.floor(tag / 8), wire, value, sub };
  }
  text(): string {
    return this.buf.toString('utf8', this.pos, this.end);
  }
}

/** ValueInfoProto: name (1), type (2) → tensor_type (1) → shape (2) → dim (1): dim_value (1) or dim_param (2). */
function valueInfo(m: Bytes): OnnxTensorInfo {
  let name = '';
  let shape: OnnxDim[] | null = null;
  while (!m.done) {
    const f = m.next();
    if (f.num === 1 && f.sub) name = f.sub.text();
    if (f.num !== 2 || !f.sub) continue;
    while (!f.sub.done) {
      const t = f.sub.next();
      if (t.num !== 1 || !t.sub) continue;
      while (!t.sub.done) {
        const u = t.sub.next();
        if (u.num !== 2 || !u.sub) continue;
        shape = [];
        while (!u.sub.done) {
          const d = u.sub.next();
          if (d.num !== 1 || !d.sub) continue;
          let dim: OnnxDim = null;
          while (!d.sub.done) {
            const v = d.sub.next();
            if (v.num === 1 && v.wire === 0) dim = v.value;
            else if (v.num === 2 && v.sub) dim = v.sub.text();
          }
          shape.push(dim);
        }
      }
    }
  }
  return { name, shape };
}

/** Walks `file` as an ONNX ModelProto; throws OnnxFileError naming the file when it is not one. */
export async function checkOnnx(file: string): Promise<OnnxSummary> {
  let opened: Awaited<ReturnType<typeof openRegular>>;
  try {
    opened = await openRegular(file);
  } catch (err) {
    // A FIFO would hang the open, a link could lead anywhere: only regular files are read.
    if (err instanceof FileRefusedError) throw new OnnxFileError(`${file} is not a usable ONNX model: it is ${err.what}`);
    throw err;
  }
  const { fh, size } = opened;
  try {
    if (size === 0) throw new OnnxFileError('it is empty');
    const r = new FileWindow(fh, size, onnxErrors);
    const top = await fields(r, 0, size);
    const graph = top.find((f) => f.num === 7 && f.wire === 2);
    if (!top.some((f) => f.num === 1 && f.wire === 0)) throw new OnnxFileError('it has no ir_version (not an ONNX model)');
    if (!graph) throw new OnnxFileError('it has no graph (not an ONNX model)');
    const g = await fields(r, graph.start, graph.start + graph.len);
    const count = (n: number) => g.filter((f) => f.num === n && f.wire === 2).length;
    const info = async (n: number): Promise<OnnxTensorInfo[]> => {
      const out: OnnxTensorInfo[] = [];
      for (const f of g.filter((x) => x.num === n && x.wire === 2)) {
        if (f.len > 1 << 20) throw new OnnxFileError('it has an oversized graph input or output');
        r.pos = f.start;
        out.push(valueInfo(new Bytes(await r.need(f.len))));
      }
      return out;
    };
    const summary: OnnxSummary = {
      metadata: {},
      inputs: count(11),
      outputs: count(12),
      nodes: count(1),
      inputInfo: await info(11),
      outputInfo: await info(12),
    };
    if (summary.inputs === 0 || summary.outputs === 0) throw new OnnxFileError('its graph has no inputs or no outputs');
    for (const m of top.filter((f) => f.num === 14 && f.wire === 2)) {
      if (m.len > 1 << 20) throw new OnnxFileError('it has an oversized metadata entry');
      const kv = await fields(r, m.start, m.start + m.len);
      const k = kv.find((f) => f.num === 1 && f.wire === 2);
      const v = kv.find((f) => f.num === 2 && f.wire === 2);
      if (k) summary.metadata[await text(r, k)] = v ? await text(r, v) : '';
    }
    return summary;
  } catch (err) {
    if (err instanceof OnnxFileError) throw new OnnxFileError(`${file} is not a usable ONNX model: ${err.message}`);
    throw err;
  } finally {
    await fh.close();
  }
}

/**
 * ONNX Runtime's own format (`.ort`, a FlatBuffer), as upstream ships Moonshine v2
 * (sherpa-onnx nodejs-addon-examples/test_asr_non_streaming_moonshine_v2.js names encoder_model.ort and
 * decoder_model_merged.ort). It carries no metadata sherpa-onnx reads for that family, so the check is the
 * FlatBuffer's file identifier "ORTM" (bytes 4–7) and a root table offset inside the file; the load itself
 * runs in the native child, where a damaged file is that child's death, not the engine's.
 */
export async function checkOrt(file: string): Promise<OnnxSummary> {
  let opened: Awaited<ReturnType<typeof openRegular>>;
  try {
    opened = await openRegular(file);
  } catch (err) {
    if (err instanceof FileRefusedError) throw new OnnxFileError(`${file} is not a usable ONNX Runtime model: it is ${err.what}`);
    throw err;
  }
  const { fh, size } = opened;
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await fh.read(head, 0, 8, 0);
    const root = head.readUInt32LE(0);
    if (bytesRead < 8 || head.toString('latin1', 4, 8) !== 'ORTM' || root < 8 || root >= size)
      throw new OnnxFileError(`${file} is not a usable ONNX Runtime model: it is not in the .ort format`);
    return { metadata: {}, inputs: 0, outputs: 0, nodes: 0, inputInfo: [], outputInfo: [] };
  } finally {
    await fh.close();
  }
}
