/**
 * Drives one job through the states of states.ts: read the stored row, take
 * the step it calls for, write the next state before acting, repeat until a
 * final state. The same loop runs a new job and a job resumed after a restart.
 */
import { AppError, type ErrorCode } from '../../../shared/errors';
import { RETRYABLE } from '../client/http';
import type { JobRow } from '../library/jobs';
import type { JobContext } from './context';
import { poll } from './poll';
import { nextStep } from './states';
import { createOnce } from './submit';
import { uploadFile } from './upload';

/** Upload slots (Settings → uploads at once); waiting is cancelable. */
export interface UploadSlots {
  acquire(signal?: AbortSignal): Promise<() => void>;
}

export async function runJob(ctx: JobContext, id: string, slots: UploadSlots, signal: AbortSignal): Promise<void> {
  let row = ctx.store.row(id);
  if (!row || nextStep(row) === 'done') return;
  if (row.region === 'local') await ctx.engine.ensure();
  // An upload finished in this run was not created from yet: no need to search the service's list first.
  let justUploaded = false;
  for (;;) {
    row = ctx.store.must(id);
    switch (nextStep(row)) {
      case 'upload':
        await upload(ctx, row, slots, signal);
        justUploaded = true;
        break;
      case 'submit':
        await submit(ctx, row, !justUploaded, signal);
        break;
      case 'poll':
        await poll(ctx, row, signal);
        break;
      case 'done':
        return;
    }
    if (signal.aborted) throw new AppError('canceled', 'Canceled.');
  }
}

/** queued → uploading(bytes 0) → uploading(upload_url set). */
async function upload(ctx: JobContext, row: JobRow, slots: UploadSlots, signal: AbortSignal): Promise<void> {
  const release = await slots.acquire(signal);
  try {
    ctx.transition(row.id, 'uploading', { bytes: 0, attempt: true });
    const url = await uploadFile(ctx, ctx.store.must(row.id), signal);
    ctx.transition(row.id, 'uploading', { uploadUrl: url, bytes: row.bytes_total ?? 0 });
  } finally {
    release();
  }
}

/** queued|uploading → submitted(remote id). A URL job counts its attempt (queued → queued) before the create. */
async function submit(ctx: JobContext, row: JobRow, resumed: boolean, signal: AbortSignal): Promise<void> {
  // After a restart, any earlier attempt (an upload finished, a create sent) may have created a transcript whose answer was lost.
  const maybeCreated = row.source_kind === 'url' ? row.attempts > 0 : resumed && (row.upload_url !== null || row.attempts > 0);
  let audioUrl: string;
  if (row.source_kind === 'url') {
    audioUrl = row.source;
    // Written before the create: a restart knows a transcript may exist since this moment.
    ctx.transition(row.id, 'queued', { attempt: true });
  } else {
    audioUrl = row.region === 'local' ? currentEngineOrigin(ctx, row.upload_url!) : row.upload_url!;
  }
  const remoteId = await createOnce(ctx, ctx.store.must(row.id), audioUrl, maybeCreated, signal);
  ctx.transition(row.id, 'submitted', { remoteId });
}

/** An upload URL of the local engine, on the port the engine has now (it may have moved after a restart). */
function currentEngineOrigin(ctx: JobContext, uploadUrl: string): string {
  const h = ctx.engine.current();
  if (!h) return uploadUrl;
  try {
    const u = new URL(uploadUrl);
    const now = new URL(h.url);
    if (u.hostname !== '127.0.0.1' || u.host === now.host) return uploadUrl;
    u.host = now.host;
    return u.toString();
  } catch {
    return uploadUrl;
  }
}

/** Whether "Retry" makes sense for a job that failed with this code. */
export function isRetryable(code: ErrorCode): boolean {
  return RETRYABLE.has(code) || code === 'server_error' || code === 'engine_unavailable' || code === 'internal';
}
