/** Voiceprints as the library stores them: little-endian float32 blobs. */
export const toBlob = (v: ArrayLike<number>): Buffer => Buffer.from(Float32Array.from(v).buffer);
export const fromBlob = (b: Buffer): Float32Array => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
