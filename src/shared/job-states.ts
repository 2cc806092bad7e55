/**
 * The states of a transcription job, written once (no zod here, so the
 * renderer can import it without loading the schemas): main's job store and
 * state machine, the contract's schema and the renderer's queue all read them.
 */
export const JOB_STATUSES = ['queued', 'uploading', 'submitted', 'processing', 'completed', 'error', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The states a job never leaves on its own (Retry starts it again). */
export const FINAL_JOB_STATUSES = ['completed', 'error', 'canceled'] as const satisfies readonly JobStatus[];
export type FinalJobStatus = (typeof FINAL_JOB_STATUSES)[number];

export function isFinalJobStatus(status: JobStatus): status is FinalJobStatus {
  return (FINAL_JOB_STATUSES as readonly JobStatus[]).includes(status);
}
