/**
 * The upload step: the file streamed to the service with progress (rate, ETA) for the queue, bytes
 * written every few seconds. The file is checked again and opened by the owner of the user's files
 * (services/files) and read from that descriptor only: a file swapped for a link after it was added
 * (a watched folder, a path under --folder) is refused, not read from wherever the link leads.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { AppError } from '../../../shared/errors';
import type { OpenedFile } from '../files/refs';
import type { JobRow } from '../library/jobs';
import type { JobContext } from './context';

/** The job's source, opened: a user's file through the check, a staged upload as staged, the library's own recording as is. */
async function openSource(ctx: JobContext, row: JobRow): Promise<OpenedFile> {
  if (row.source_kind === 'file') return ctx.files.openPath(row.source, { name: row.name });
  if (row.source_kind === 'upload' && ctx.files.staged.holds(row.source)) {
    const handle = await open(row.source, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)).catch((e: unknown) => {
      throw new AppError('file_unreadable', 'The uploaded copy of this file is gone. Drop the file again.', { cause: e });
    });
    const size = (await handle.stat()).size;
    return { path: row.source, name: row.name, size, handle, staged: true, close: () => handle.close().catch(() => undefined) };
  }
  const handle = await open(row.source, 'r').catch((e: unknown) => {
    throw new AppError('file_unreadable', `Verbatim cannot read the recording of “${row.name}”: it was moved or deleted.`, { cause: e });
  });
  const size = (await handle.stat()).size;
  return { path: row.source, name: row.name, size, handle, staged: false, close: () => handle.close().catch(() => undefined) };
}

export async function uploadFile(ctx: JobContext, row: JobRow, signal: AbortSignal): Promise<string> {
  const now = () => ctx.clock.now();
  const startedAt = now();
  let lastEmit = 0;
  let lastWrite = startedAt;
  let rate = 0;
  let rateAt = startedAt;
  let rateBytes = 0;
  const file = await openSource(ctx, row);
  try {
    return await ctx.call(row, signal, (c) =>
      c.upload(
        { name: row.source, size: file.size, handle: file.handle },
        {
          signal,
          onProgress: ({ bytes, total }) => {
            const t = now();
            if (t - rateAt >= 250) {
              const inst = ((bytes - rateBytes) * 1000) / (t - rateAt);
              rate = rate === 0 ? inst : rate * 0.7 + inst * 0.3;
              rateAt = t;
              rateBytes = bytes;
            }
            if (t - lastEmit >= 100 || bytes === total) {
              lastEmit = t;
              const bps = rate || (bytes * 1000) / Math.max(1, t - startedAt);
              ctx.events.progress({
                id: row.id,
                bytes,
                total,
                bytesPerSecond: Math.round(bps),
                etaSeconds: bps > 0 ? Math.max(0, (total - bytes) / bps) : null,
              });
            }
            if (t - lastWrite >= 2000) {
              lastWrite = t;
              ctx.store.saveBytes(row.id, bytes);
            }
          },
        },
      ),
    );
  } finally {
    await file.close();
  }
}
