import type { JobService } from '../services/jobs';
import type { PickedFiles } from '../services/picked-files';
import type { Router } from './router';
import { AppError } from '../../shared/errors';

export function registerJobHandlers(router: Router, jobs: JobService, picked: PickedFiles): void {
  router.handle('jobs.addFiles', async ({ paths, durationsMs, options }) => {
    const refused = paths.find((p) => !picked.allows(p));
    if (refused !== undefined)
      throw new AppError(
        'forbidden',
        `Verbatim in the browser only transcribes files you drop or choose (they are uploaded), not a path on the server such as “${refused.slice(0, 200)}”. Nothing was added.`,
      );
    return {
      jobs: await jobs.addFiles(
        paths.map((path, i) => ({ path, picked: picked.has(path), durationMs: durationsMs?.[i] ?? null })),
        options,
      ),
    };
  });
  router.handle('jobs.addUpload', ({ uploadId, name, durationMs, options }) => jobs.addUpload(uploadId, name, options, durationMs));
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
