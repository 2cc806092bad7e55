/**
 * The job state machine on one page (DESIGN.md §5). Each state is stored
 * before the work it names begins, so the stored row alone says what a
 * restarted app does next:
 *
 *   queued ──► uploading ──► submitted ──► processing ──► completed
 *     │  (URL jobs skip uploading)  │            │
 *     └──────────────┬──────────────┴────────────┴──► error | canceled ──(retry)──► queued
 *
 * - queued: staged; nothing sent yet, or (attempts > 0) a create may exist.
 * - uploading: bytes going up; upload_url set once the service has them all.
 * - submitted: the service has a transcript id (remote_id); poll it.
 * - processing: the service said so; keep polling.
 * - completed / error / canceled: final until the user retries.
 */
import { FINAL_JOB_STATUSES, isFinalJobStatus, type JobStatus } from '../../../shared/job-states';
import type { JobRow } from '../library/jobs';

export { FINAL_JOB_STATUSES, isFinalJobStatus };

/** Every transition the machine may write; anything else is a bug and is refused. */
export const TRANSITIONS: Readonly<Record<JobStatus, readonly JobStatus[]>> = {
  // queued → queued marks one more create attempt of a URL job.
  queued: ['queued', 'uploading', 'submitted', 'error', 'canceled'],
  // uploading → uploading records the finished upload's URL.
  uploading: ['uploading', 'submitted', 'error', 'canceled'],
  submitted: ['processing', 'completed', 'error', 'canceled'],
  processing: ['completed', 'error', 'canceled'],
  completed: [],
  error: ['queued'],
  canceled: ['queued'],
};

export function canTransition(from: JobStatus, to: JobStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** What the machine does next for a stored job (the same answer at first run and after a restart). */
export type Step = 'upload' | 'submit' | 'poll' | 'done';

export function nextStep(row: Pick<JobRow, 'status' | 'remote_id' | 'upload_url' | 'source_kind'>): Step {
  if (isFinalJobStatus(row.status)) return 'done';
  if (row.remote_id !== null) return 'poll';
  // A URL job has nothing to upload; a finished upload is not sent again.
  if (row.source_kind === 'url' || row.upload_url !== null) return 'submit';
  return 'upload';
}
