/**
 * Memory a GGUF model needs loaded, and memory the system has free, so a
 * model too big for this machine is refused with a sentence instead of
 * swapping the computer to a halt.
 */
import { readFileSync } from 'node:fs';
import { freemem } from 'node:os';
import type { GgufInfo } from './gguf-check';

/** Weights (the file), the KV cache in F16 for `contextSize` tokens, and 64 MiB of buffers. */
export function ramNeed(info: GgufInfo, contextSize: number): number {
  const headDim = info.embeddingLength / Math.max(1, info.headCount);
  const kv = 2 * info.blockCount * contextSize * info.headCountKv * headDim * 2;
  return Math.round(info.fileBytes + kv + 64 * 1024 * 1024);
}

/** MemAvailable on Linux (what can be had without swapping), else the OS's free memory. */
export function availableMemory(): number {
  try {
    const m = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux
  }
  return freemem();
}

export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GB`;
  return `${Math.max(1, Math.round(n / 1024 ** 2))} MB`;
}
