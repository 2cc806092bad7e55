// The cores a file job's decoding takes: live sessions first, the rest split between file jobs, never more busy threads than cores.
import { describe, expect, it } from 'vitest';
import { decodeShare, fileJobDecoding, liveSessionOpened, setFileWorkers, currentShare } from '../../../src/engine/recognizer/decode-share';
import { inOrder } from '../../../src/engine/jobs/recognize-segments';

describe('decodeShare', () => {
  it("gives one job every core, up to the decodes the worker's pool runs at once", () => {
    expect(decodeShare({ cores: 8, fileJobs: 1, workers: 2, liveSessions: 0, pool: 16 })).toEqual({ parallelSegments: 8, threadsPerDecode: 1 });
    expect(decodeShare({ cores: 8, fileJobs: 1, workers: 2, liveSessions: 0, pool: 4 })).toEqual({ parallelSegments: 4, threadsPerDecode: 1 });
    expect(decodeShare({ cores: 2, fileJobs: 1, workers: 1, liveSessions: 0 })).toEqual({ parallelSegments: 2, threadsPerDecode: 1 });
  });

  it('splits the cores between the jobs running, at most --workers of them', () => {
    expect(decodeShare({ cores: 16, fileJobs: 2, workers: 2, liveSessions: 0, pool: 16 }).parallelSegments).toBe(8);
    expect(decodeShare({ cores: 8, fileJobs: 2, workers: 2, liveSessions: 0 }).parallelSegments).toBe(4);
    expect(decodeShare({ cores: 8, fileJobs: 4, workers: 2, liveSessions: 0 }).parallelSegments).toBe(4);
    expect(decodeShare({ cores: 8, fileJobs: 3, workers: 4, liveSessions: 0 }).parallelSegments).toBe(2);
  });

  it('leaves live sessions their cores first, and a job at least one', () => {
    expect(decodeShare({ cores: 8, fileJobs: 1, workers: 2, liveSessions: 3, pool: 16 }).parallelSegments).toBe(5);
    expect(decodeShare({ cores: 2, fileJobs: 1, workers: 1, liveSessions: 1 }).parallelSegments).toBe(1);
    expect(decodeShare({ cores: 2, fileJobs: 1, workers: 1, liveSessions: 5 }).parallelSegments).toBe(1);
  });

  it('never has more busy threads than cores left to files', () => {
    for (let cores = 1; cores <= 64; cores++)
      for (let jobs = 1; jobs <= 8; jobs++)
        for (let live = 0; live < cores; live++) {
          const s = decodeShare({ cores, fileJobs: jobs, workers: 8, liveSessions: live });
          // Each running job still gets one thread, even when jobs outnumber the cores left.
          expect(s.parallelSegments * s.threadsPerDecode * jobs).toBeLessThanOrEqual(Math.max(cores - live, jobs));
        }
  });

  it('follows the jobs and sessions that come and go', () => {
    setFileWorkers(4);
    const job = fileJobDecoding();
    const alone = currentShare().parallelSegments;
    const other = fileJobDecoding();
    const live = liveSessionOpened();
    expect(currentShare().parallelSegments).toBeLessThanOrEqual(alone);
    other();
    other();
    live();
    live();
    expect(currentShare().parallelSegments).toBe(alone);
    job();
  });
});

describe('inOrder', () => {
  it('keeps index order with at most limit() in flight', async () => {
    let now = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const run = inOrder(
      10,
      () => 3,
      async (i) => {
        most = Math.max(most, ++now);
        await new Promise<void>((r) => gates.push(r));
        now--;
        return i * 2;
      },
    );
    let settled = false;
    void run.finally(() => (settled = true));
    // Releases the latest call first, each time one is waiting, until every call has answered.
    while (!settled) {
      const g = gates.pop();
      if (g) g();
      await new Promise<void>((r) => setImmediate(r));
    }
    expect(await run).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(most).toBe(3);
  });

  it('rejects with the first failure', async () => {
    await expect(
      inOrder(
        5,
        () => 2,
        (i) => (i === 3 ? Promise.reject(new Error('bad segment')) : Promise.resolve(i)),
      ),
    ).rejects.toThrow('bad segment');
  });
});
