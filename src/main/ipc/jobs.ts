import type { JobService } from '../services/jobs';
import type { Router } from './router';

/** Every file goes through the jobs service's one check (services/files): a path outside --folder or a link out is refused there. */
export function registerJobHandlers(router: Router, jobs: JobService): void {
  router.handle('jobs.addFiles', async ({ files, durationsMs, options }) => ({
    jobs: await jobs.add(
      files.map((file, i) => ({ file, durationMs: durationsMs?.[i] ?? null })),
      options,
    ),
  }));
  router.handle('jobs.addUrl', ({ url, name, options }) => jobs.addUrl(url, name, options));
  router.handle('jobs.list', (input) => ({ jobs: jobs.list(input?.includeFinished ?? true, input?.limit ?? 200) }));
  router.handle('jobs.cancel', ({ id }) => jobs.cancel(id));
  router.handle('jobs.retry', ({ id }) => jobs.retry(id));
  router.handle('jobs.addSpeakers', ({ id }) => jobs.addSpeakers(id));
  router.handle('jobs.remove', async ({ id }) => {
    await jobs.remove(id);
    return { ok: true as const };
  });
}
