/** Transcription jobs (durable; see DESIGN.md §5). */
import { z } from 'zod';
import { jobSchema, transcriptionOptionsSchema } from '../jobs';
import { durationHint, idInput, okOutput, type Contracts } from './common';

export const jobChannels = {
  // ── jobs (durable; see DESIGN.md §5) ────────────────────────────────────
  /**
   * Transcribe local files by path (Electron: from drag-and-drop via
   * webUtils.getPathForFile, or an <input type=file>). One job each; each also
   * creates its library item at once (status queued). `options` override
   * settings.transcriptionDefaults. Errors: `file_unreadable` naming the file.
   */
  'jobs.addFiles': {
    input: z
      .object({
        paths: z.array(z.string().min(1)).min(1).max(500),
        /** Lengths the renderer measured (same order as `paths`; null where unknown), shown until the service reports its own. */
        durationsMs: z.array(durationHint.nullable()).max(500).optional(),
        options: transcriptionOptionsSchema.optional(),
      })
      .strict(),
    output: z.object({ jobs: z.array(jobSchema) }),
  },
  /**
   * Host mode (a browser cannot give paths): first POST the file's bytes to
   * `/upload?token=<launch token>&name=<encodeURIComponent(file.name)>` on the
   * page's own origin (body = the raw File, any content type; answer 200
   * `{"uploadId": "…", "bytes": N}`; 401 without the token; 413 above 5 GiB),
   * then call this with the uploadId. The staged file becomes the job's source.
   */
  'jobs.addUpload': {
    input: z
      .object({
        uploadId: z.string().min(1),
        name: z.string().min(1).max(500).optional(),
        durationMs: durationHint.optional(),
        options: transcriptionOptionsSchema.optional(),
      })
      .strict(),
    output: jobSchema,
  },
  /** Transcribe a public http(s) URL the service can fetch (no upload). */
  'jobs.addUrl': {
    input: z.object({ url: z.url({ protocol: /^https?$/ }), name: z.string().max(500).optional(), options: transcriptionOptionsSchema.optional() }).strict(),
    output: jobSchema,
  },
  /** Jobs, newest first: every unfinished one and the latest finished ones. */
  'jobs.list': {
    input: z
      .object({ includeFinished: z.boolean().default(true), limit: z.number().int().min(1).max(1000).default(200) })
      .strict()
      .optional(),
    output: z.object({ jobs: z.array(jobSchema) }),
  },
  /** Stop a job (abort the upload, stop polling; deletes the remote transcript if one exists). Final jobs: `conflict`. */
  'jobs.cancel': { input: idInput, output: jobSchema },
  /** Run a failed or canceled job again (resubmits; re-uploads when the upload is gone). */
  'jobs.retry': { input: idInput, output: jobSchema },
  /** Forget a finished job (its library item stays). Unfinished jobs are canceled first. */
  'jobs.remove': { input: idInput, output: okOutput },
  /**
   * Speaker labels for a finished transcript without choosing the file again (`id`: the recording): its
   * audio (the library's copy, the original file, a live session's recording) is transcribed again with
   * speaker_labels as a new version of the item. `conflict` when it has speakers already.
   */
  'jobs.addSpeakers': { input: idInput, output: jobSchema },
} as const satisfies Contracts;
