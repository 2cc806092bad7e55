/**
 * The job queue's idle worker wakes when a job is stored (JobRunner.notify), however long it idled before.
 * A worker waits on notify() or on its 1 s safety-net timer; a wait the timer ended must leave the wake list,
 * or a later notify() wakes that finished wait instead of the waiting worker, and each new job sits out the
 * rest of a second (every job of an engine that had idled a second or more).
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { stopSpawner } from '../../../src/engine/audio/spawner';
import type { JobContext } from '../../../src/engine/context';
import { JobRunner } from '../../../src/engine/jobs/runner';

afterEach(() => {
  vi.useRealTimers();
});

afterAll(() => stopSpawner());

describe('the job queue after an idle time', () => {
  it('wakes the waiting worker on notify() after its safety-net timer has fired several times', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let claims = 0;
    const ctx = {
      opts: { workers: 1 },
      logger: { info: () => undefined, error: () => undefined },
      store: {
        requeueInterrupted: () => 0,
        // No job is ever queued: each call is one look at the queue by the worker.
        claimNextJob: () => {
          claims++;
          return null;
        },
      },
    } as unknown as JobContext;
    const runner = new JobRunner(ctx);
    runner.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(claims).toBe(1);
    // Three idle seconds: the timer ends three waits, each followed by another look.
    await vi.advanceTimersByTimeAsync(3000);
    expect(claims).toBe(4);
    // A job is stored: notify() wakes the worker at once, with no timer due.
    runner.notify();
    await vi.advanceTimersByTimeAsync(0);
    expect(claims).toBe(5);
    vi.useRealTimers();
    await runner.drain(1000);
  });
});
