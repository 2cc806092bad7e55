/** Durable transcription jobs: the service the IPC handlers call, over the state machine in states.ts and machine.ts. */
export { JobService, type FileSource } from './service';
export type { JobEvents, JobServiceOptions } from './context';
export { classifyTranscriptError } from './poll';
export { TRANSITIONS, nextStep } from './states';
