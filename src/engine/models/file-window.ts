/**
 * A buffered forward reader over an opened model file (a 1 MiB window, re-read when a position leaves it),
 * bounded by the file's size and an optional budget: what the ONNX and GGUF checks walk, so a 600 MB model
 * costs a few reads. The caller names the errors, so each check speaks of its own format.
 */
import type { FileHandle } from 'node:fs/promises';

export interface WindowErrors {
  /** A read would pass the end of the file (truncated). */
  end(): Error;
  /** The file gave fewer bytes than its size promised. */
  short(): Error;
  /** A read would pass the budget. */
  budget?(): Error;
}

const WINDOW = 1 << 20;

export class FileWindow {
  private buf = Buffer.alloc(0);
  private bufAt = 0;
  pos = 0;

  constructor(
    private readonly fh: FileHandle,
    readonly size: number,
    private readonly errors: WindowErrors,
    /** No byte past this offset is read. */
    private readonly budget = Number.POSITIVE_INFINITY,
  ) {}

  /** The next `n` bytes (a view valid until the next read), advancing past them. */
  async need(n: number): Promise<Buffer> {
    if (this.pos + n > this.size) throw this.errors.end();
    if (this.pos + n > this.budget) throw (this.errors.budget ?? this.errors.end)();
    if (this.pos < this.bufAt || this.pos + n > this.bufAt + this.buf.length) {
      const len = Math.min(Math.max(n, WINDOW), this.size - this.pos);
      const b = Buffer.alloc(len);
      const { bytesRead } = await this.fh.read(b, 0, len, this.pos);
      if (bytesRead < n) throw this.errors.short();
      this.buf = b.subarray(0, bytesRead);
      this.bufAt = this.pos;
    }
    const at = this.pos - this.bufAt;
    this.pos += n;
    return this.buf.subarray(at, at + n);
  }

  /** The next byte. */
  async byte(): Promise<number> {
    const at = this.pos - this.bufAt;
    if (at >= 0 && at < this.buf.length) {
      this.pos++;
      return this.buf[at] as number;
    }
    return (await this.need(1))[0] as number;
  }

  /** Moves past `n` bytes without reading them. */
  skip(n: number): void {
    this.pos += n;
    if (this.pos > this.size) throw this.errors.end();
  }
}
