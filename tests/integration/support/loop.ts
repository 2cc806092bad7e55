/** The event-loop probe (loop-probe.mjs) from the test's side: the env that loads it into a child process, a reset, and its figures. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';

export interface LoopFigures {
  maxMs: number;
  p99Ms: number;
  meanMs: number;
  samples: number;
  since: number;
  rssMiB: number;
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

/** Starts a fresh measurement in the child and waits until its probe has written one. */
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

/** The figures after a pause of at least one probe interval (so the last stretch is in them). */
export async function finalLoop(file: string): Promise<LoopFigures> {
  const t = Date.now();
  for (let i = 0; i < 400; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const f = readLoop(file);
    if (f && i > 6) return f;
    void t;
  }
  throw new Error('the event-loop probe wrote nothing');
}
