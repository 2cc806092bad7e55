/**
 * The process helper that runs ffmpeg and friends (src/engine/audio/spawner.ts). A helper stopped by
 * stopSpawner() exits a moment later, and by then a new one may run calls: the old one's exit must fail only
 * its own calls. Before, it failed every pending call ("the process helper stopped") and forgot the new helper.
 */
import type * as ChildProcesses from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it, vi } from 'vitest';

// Every helper the module starts, to wait for the old one's exit.
const started: ChildProcess[] = [];
vi.mock('node:child_process', async (importOriginal) => {
  const real = await importOriginal<typeof ChildProcesses>();
  return {
    ...real,
    spawn: (...args: Parameters<typeof real.spawn>) => {
      const c = real.spawn(...args);
      if (args[0] === process.execPath) started.push(c);
      return c;
    },
  };
});

const { runTool, stopSpawner } = await import('../../src/engine/audio/spawner');

afterAll(() => stopSpawner());

describe('the process helper', () => {
  it("a stopped helper's exit leaves the next helper's calls running", async () => {
    expect((await runTool('true', [])).code).toBe(0);
    expect(started).toHaveLength(1);
    const old = started[0]!;
    const exited = old.exitCode !== null ? Promise.resolve() : new Promise<void>((r) => old.once('exit', () => r()));
    stopSpawner();
    // A call on the new helper, pending while the old one exits.
    const abort = new AbortController();
    let settled: string | null = null;
    const long = runTool('sleep', ['600'], abort.signal).then(
      () => (settled = 'resolved'),
      (e: Error) => (settled = e.message),
    );
    expect(started).toHaveLength(2);
    await exited;
    // The module's own exit listener ran before this one (it was added first).
    expect(settled).toBeNull();
    // The new helper is still the one in use: a further call starts no third.
    expect((await runTool('true', [])).code).toBe(0);
    expect(started).toHaveLength(2);
    abort.abort(new Error('stopped by the test'));
    await long;
    expect(settled).toBe('stopped by the test');
  });
});
