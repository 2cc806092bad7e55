/** Live captions (audio arrives as binary frames: see `binaryMessages` in ../ipc.ts). */
import { z } from 'zod';
import { transcriptWireSchema } from '../transcript-wire';
import { captionsRunSchema, captionsStartInputSchema, captionsStoppedSchema, liveStatusSchema, liveTurnSchema } from '../captions';
import { captionsTranslateInputSchema, missedInputSchema, missedSummarySchema, savedTranslationSchema, translationStatusSchema } from '../captions-extras';
import { none, idInput, type Contracts } from './common';

export const captionChannels = {
  // ── live captions (audio arrives as binary frames: see `binaryMessages`) ─
  /**
   * Start a run: one streaming session per source against the current region
   * (none with `recordOnly`), and a library item that keeps the recording.
   * `conflict` when a run is already going.
   */
  'captions.start': { input: captionsStartInputSchema, output: captionsRunSchema },
  /** Stop the run: Terminate each session, save the turns and the recording; answers what was saved. */
  'captions.stop': { input: z.lazy(() => z.object({ run: z.number().int().positive() }).strict()), output: captionsStoppedSchema },
  /** The run going on now (another window, the overlay, a reload), or null. */
  'captions.current': {
    input: none,
    output: z.lazy(() =>
      z.object({
        run: captionsRunSchema.nullable(),
        turns: z.array(liveTurnSchema),
        status: z.array(liveStatusSchema),
        /** Final turns' translations so far, by turn key. */
        translations: z.record(z.string(), z.string()).optional(),
      }),
    ),
  },
  /**
   * Improve accuracy: submit a live session's recording as a pre-recorded job
   * (cloud or local). Both versions are kept; the improved one is shown by default.
   */
  'captions.improve': { input: idInput, output: z.lazy(() => z.object({ jobId: z.string() })) },
  /** The versions of a live session's transcript (live, improved), newest first. */
  'captions.versions': {
    input: idInput,
    output: z.lazy(() =>
      z.object({
        versions: z.array(
          z.object({ transcriptId: z.string(), kind: z.enum(['live', 'improved']), status: z.string(), createdAt: z.string(), wordCount: z.number().int() }),
        ),
      }),
    ),
  },
  /** One version of a live session (by transcript id), as library.get answers the latest. */
  'captions.version': { input: z.lazy(() => z.object({ id: z.string().min(1), transcriptId: z.string().min(1) }).strict()), output: transcriptWireSchema },
  /** Desktop app: show, hide or toggle the always-on-top overlay window. Host mode answers `unavailable` (the page opens Picture-in-Picture). */
  'captions.overlay': { input: z.lazy(() => z.object({ show: z.boolean().optional() }).strict()), output: z.lazy(() => z.object({ visible: z.boolean() })) },
  /** Translate each final turn of the run into `language` (null: stop); kept for the next run too. Answers what translation is doing. */
  'captions.translate': { input: captionsTranslateInputSchema, output: translationStatusSchema },
  /** "What did I miss?": a summary of the run's last minutes, streamed by `captions.missed` events; `conflict` while one is written. */
  'captions.missed': { input: missedInputSchema, output: missedSummarySchema },
  /** Stop the summary being written (what it has so far is kept). */
  'captions.missedStop': { input: none, output: z.lazy(() => z.object({ stopped: z.boolean() })) },
  /** The summaries saved with a live session, oldest first. */
  'captions.summaries': { input: idInput, output: z.lazy(() => z.object({ summaries: z.array(missedSummarySchema) })) },
  /** "Keep recording": withdraws "Still recording?" and counts the silence from now (false: that session is no longer running). */
  'captions.keepRecording': {
    input: z.lazy(() => z.object({ run: z.number().int().positive() }).strict()),
    output: z.lazy(() => z.object({ kept: z.boolean() })),
  },
  /** The translated lines saved with a live session, in time order (none when it was not translated). */
  'captions.translations': { input: idInput, output: z.lazy(() => z.object({ translations: z.array(savedTranslationSchema) })) },
} as const satisfies Contracts;
