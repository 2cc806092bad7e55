/** Test helpers for main's jobs: wait for a job to reach a final state (kept out of the production service). */
import { isFinalJobStatus } from '../../src/shared/job-states';
import type { Job } from '../../src/shared/jobs';

export async function waitFinal(jobs: { get(id: string): Job }, id: string, timeoutMs = 60_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const j = jobs.get(id);
    if (isFinalJobStatus(j.status)) return j;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${j.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
