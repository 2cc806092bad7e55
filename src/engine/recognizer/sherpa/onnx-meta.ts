/**
 * Reads an ONNX file's metadata and its graph's input and output shapes in
 * plain JavaScript (a protobuf walk that skips the weights), so a model we did
 * not write is checked before native code loads it. Malformed bytes are an
 * OnnxFormatError, never a crash.
 */
import { open } from 'node:fs/promises';

export class OnnxFormatError extends Error {}

/** A dimension: a number when fixed, a name (or null) when dynamic. */
export type OnnxDim = number | string | null;

export interface OnnxTensorInfo {
  name: string;
  /** Null when the graph does not say (no tensor type). */
  shape: OnnxDim[] | null;
}

export interface OnnxInfo {
  metadata: Record<string, string>;
  inputs: OnnxTensorInfo[];
  outputs: OnnxTensorInfo[];
}

/** Models larger than this are not ONNX models we run. */
const MAX_BYTES = 1024 * 1024 * 1024;

class Reader {
  pos: number;
  constructor(
    readonly buf: Buffer,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }
  get done(): boolean {
    return this.pos >= this.end;
  }
  varint(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new OnnxFormatError('the file ends inside a number');
      const b = this.buf[this.pos++] as number;
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 128;
    }
    throw new OnnxFormatError('a number is too long');
  }
  /** A field's tag: its number and wire type. */
  tag(): { field: number; wire: number } {
    const t = this.varint();
    return { field: Math.floor(t / 8), wire: t % 8 };
  }
  /** The bounds of a length-delimited field. */
  bytes(): { start: number; end: number } {
    const len = this.varint();
    const start = this.pos;
    const end = start + len;
    if (end > this.end) throw new OnnxFormatError('a field runs past the end of the file');
    this.pos = end;
    return { start, end };
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new OnnxFormatError(`unknown protobuf wire type ${wire}`);
    if (this.pos > this.end) throw new OnnxFormatError('a field runs past the end of the file');
  }
  sub(r: { start: number; end: number }): Reader {
    return new Reader(this.buf, r.start, r.end);
  }
  text(r: { start: number; end: number }): string {
    return this.buf.toString('utf8', r.start, r.end);
  }
}

function readKeyValue(r: Reader): [string, string] {
  let key = '';
  let value = '';
  while (!r.done) {
    const { field, wire } = r.tag();
    if (wire === 2 && (field === 1 || field === 2)) {
      const s = r.text(r.bytes());
      if (field === 1) key = s;
      else value = s;
    } else r.skip(wire);
  }
  return [key, value];
}

function readDim(r: Reader): OnnxDim {
  let dim: OnnxDim = null;
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === 0) dim = r.varint();
    else if (field === 2 && wire === 2) dim = r.text(r.bytes());
    else r.skip(wire);
  }
  return dim;
}

function readShape(r: Reader): OnnxDim[] {
  const dims: OnnxDim[] = [];
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === 2) dims.push(readDim(r.sub(r.bytes())));
    else r.skip(wire);
  }
  return dims;
}

function readValueInfo(r: Reader): OnnxTensorInfo {
  let name = '';
  let shape: OnnxDim[] | null = null;
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === 2) name = r.text(r.bytes());
    else if (field === 2 && wire === 2) {
      // TypeProto → tensor_type (1) → shape (2).
      const type = r.sub(r.bytes());
      while (!type.done) {
        const t = type.tag();
        if (t.field === 1 && t.wire === 2) {
          const tensor = type.sub(type.bytes());
          while (!tensor.done) {
            const u = tensor.tag();
            if (u.field === 2 && u.wire === 2) shape = readShape(tensor.sub(tensor.bytes()));
            else tensor.skip(u.wire);
          }
        } else type.skip(t.wire);
      }
    } else r.skip(wire);
  }
  return { name, shape };
}

/** Parses a ModelProto held in `buf`: metadata_props (14) and the graph's (7) inputs (11) and outputs (12). */
export function parseOnnx(buf: Buffer): OnnxInfo {
  const top = new Reader(buf, 0, buf.length);
  const info: OnnxInfo = { metadata: {}, inputs: [], outputs: [] };
  let sawGraph = false;
  while (!top.done) {
    const { field, wire } = top.tag();
    if (field === 14 && wire === 2) {
      const [k, v] = readKeyValue(top.sub(top.bytes()));
      info.metadata[k] = v;
    } else if (field === 7 && wire === 2) {
      sawGraph = true;
      const g = top.sub(top.bytes());
      while (!g.done) {
        const t = g.tag();
        if (t.field === 11 && t.wire === 2) info.inputs.push(readValueInfo(g.sub(g.bytes())));
        else if (t.field === 12 && t.wire === 2) info.outputs.push(readValueInfo(g.sub(g.bytes())));
        else g.skip(t.wire);
      }
    } else top.skip(wire);
  }
  if (!sawGraph) throw new OnnxFormatError('it has no graph');
  return info;
}

/** Reads and parses an ONNX file; every failure is an OnnxFormatError saying what is wrong with which file. */
export async function readOnnxInfo(path: string): Promise<OnnxInfo> {
  let buf: Buffer;
  try {
    const f = await open(path, 'r');
    try {
      const { size } = await f.stat();
      if (size > MAX_BYTES) throw new OnnxFormatError(`${path} is ${Math.round(size / 1048576)} MiB, larger than any model it could be`);
      buf = Buffer.alloc(size);
      await f.read(buf, 0, size, 0);
    } finally {
      await f.close();
    }
  } catch (err) {
    if (err instanceof OnnxFormatError) throw err;
    throw new OnnxFormatError(`${path} cannot be read (${err instanceof Error ? err.message : String(err)})`);
  }
  try {
    return parseOnnx(buf);
  } catch (err) {
    throw new OnnxFormatError(`${path} is not an ONNX model: ${err instanceof Error ? err.message : String(err)}`);
  }
}
