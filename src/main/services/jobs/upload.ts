/** The upload step: the file streamed to the service with progress (rate, ETA) for the queue, bytes written every few seconds. */
import type { JobRow } from '../library/jobs';
import type { JobContext } from './context';

export async function uploadFile(ctx: JobContext, row: JobRow, signal: AbortSignal): Promise<string> {
  const now = () => ctx.clock.now();
  const startedAt = now();
  let lastEmit = 0;
  let lastWrite = startedAt;
  let rate = 0;
  let rateAt = startedAt;
  let rateBytes = 0;
  return ctx.call(row, signal, (c) =>
    c.upload(row.source, {
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
          ctx.events.progress({ id: row.id, bytes, total, bytesPerSecond: Math.round(bps), etaSeconds: bps > 0 ? Math.max(0, (total - bytes) / bps) : null });
        }
        if (t - lastWrite >= 2000) {
          lastWrite = t;
          ctx.store.saveBytes(row.id, bytes);
        }
      },
    }),
  );
}
