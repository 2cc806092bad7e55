/** Transcription jobs (durable; see DESIGN.md §5). */
import { z } from 'zod';
import { jobSchema, transcriptionOptionsSchema } from '../jobs';
import { durationHint, idInput, okOutput, type Contracts } from './common';
import { fileRefSchema } from './files';

export const jobChannels = {
  // ── jobs (durable; see DESIGN.md §5) ────────────────────────────────────
  /**
   * Transcribe files, each a FileRef (shared/ipc/files.ts): a path the user picked or dropped (Electron:
   * webUtils.getPathForFile), or, in host mode (a browser cannot give paths), an upload: first POST the
   * file's bytes to `/upload?token=<launch token>&name=<encodeURIComponent(file.name)>` on the page's own
   * origin (body = the raw File; answer 200 `{"uploadId": "…", "bytes": N}`; 401 without the token; 413
   * above 5 GiB), then name it here with its `name`. One job each; each also creates its library item at
   * once (status queued). `options` override settings.transcriptionDefaults. Errors, with nothing added:
   * `file_unreadable` naming the file; `forbidden` in host mode for a path outside --folder, a link out included.
   */
  'jobs.addFiles': {
    input: z.lazy(() =>
      z
        .object({
          files: z.array(fileRefSchema).min(1).max(500),
          /** Lengths the renderer measured (same order as `files`; null where unknown), shown until the service reports its own. */
          durationsMs: z.array(durationHint.nullable()).max(500).optional(),
          options: transcriptionOptionsSchema.optional(),
        })
        .strict(),
    ),
    output: z.lazy(() => z.object({ jobs: z.array(jobSchema) })),
  },
  /** Transcribe a public http(s) URL the service can fetch (no upload). */
  'jobs.addUrl': {
    input: z.lazy(() =>
      z.object({ url: z.url({ protocol: /^https?$/ }), name: z.string().max(500).optional(), options: transcriptionOptionsSchema.optional() }).strict(),
    ),
    output: jobSchema,
  },
  /** Jobs, newest first: every unfinished one and the latest finished ones. */
  'jobs.list': {
    input: z.lazy(() =>
      z
        .object({ includeFinished: z.boolean().default(true), limit: z.number().int().min(1).max(1000).default(200) })
        .strict()
        .optional(),
    ),
    output: z.lazy(() => z.object({ jobs: z.array(jobSchema) })),
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
