/** The event-loop probe (loop-probe.mjs) from the test's side: the env that loads it into a child process, a reset, and its figures. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';

export interface LoopFigures {
  maxMs: number;
  p99Ms: number;
  meanMs: number;
  samples: number;
  /** The longest gap between the probe's 10 ms ticks, and the main thread's CPU time inside it (the rest was waiting for a core). */
  worstGapMs: number;
  worstGapCpuMs: number;
  since: number;
  /** When the probe wrote these figures. */
  at: number;
  rssMiB: number;
  heapUsedMiB: number;
  externalMiB: number;
}

/** Env for a child process under test: NODE_OPTIONS gains the probe, which writes to `file`. */
export function loopProbeEnv(file: string): NodeJS.ProcessEnv {
  const probe = join(import.meta.dirname, 'loop-probe.mjs');
  return { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${probe}`.trim(), VERBATIM_LOOP_PROBE: file };
}

export function readLoop(file: string): LoopFigures | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LoopFigures;
  } catch {
    return null;
  }
}

/** Runs a full collection in the child and starts a fresh measurement; waits until its probe has written one. */
export async function resetLoop(proc: ChildProcess, file: string): Promise<void> {
  const asked = Date.now();
  proc.kill('SIGUSR2');
  for (let i = 0; i < 400; i++) {
    const f = readLoop(file);
    if (f && f.since >= asked) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the event-loop probe did not answer the reset');
}

/** The first figures the probe writes after this call (so everything up to now is in them). */
export async function finalLoop(file: string): Promise<LoopFigures> {
  const t = Date.now();
  for (let i = 0; i < 400; i++) {
    const f = readLoop(file);
    if (f && f.at > t) return f;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the event-loop probe wrote nothing after the call');
}
