/**
 * Live captions' shared vocabulary: the sources, the run's settings, the turn
 * and status events main sends, and the binary audio frame that carries PCM and
 * the recording from the renderer to main (16-byte header + payload).
 */
import { z } from 'zod';
import { DEFAULT_SETTINGS } from './defaults';
import type { LiveSource } from './audio-frame';
import { findServiceModel, offeredServiceModels } from './api/service-models';
import { lazySchemas } from './lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

/** A streaming model the service offers (by id or alias); a retired or unknown one is refused with the list. */
export const cloudStreamingModelSchema = z.lazy(() => schemas().cloudStreamingModelSchema);

/** The microphone ("You") or what the computer plays ("Others"). */
export const liveSourceSchema = z.lazy(() => schemas().liveSourceSchema);
export type { LiveSource };

/** End-of-turn sensitivity as the user picks it, mapped to the service's thresholds (API.md §8.1). */
export const endOfTurnSchema = z.lazy(() => schemas().endOfTurnSchema);
export type EndOfTurn = z.infer<typeof endOfTurnSchema>;
export const endOfTurnThresholds: Record<EndOfTurn, { confidence: number; minSilenceMs: number; maxSilenceMs: number }> = {
  quick: { confidence: 0.3, minSilenceMs: 160, maxSilenceMs: 800 },
  balanced: { confidence: 0.4, minSilenceMs: 400, maxSilenceMs: 1280 },
  patient: { confidence: 0.6, minSilenceMs: 800, maxSilenceMs: 2400 },
};

export const captionsStartInputSchema = z.lazy(() => schemas().captionsStartInputSchema);
export type CaptionsStartInput = z.input<typeof captionsStartInputSchema>;

export const captionsRunSchema = z.lazy(() => schemas().captionsRunSchema);
export type CaptionsRun = z.infer<typeof captionsRunSchema>;

export const liveWordSchema = z.lazy(() => schemas().liveWordSchema);
export type LiveWord = z.infer<typeof liveWordSchema>;

/** A turn as it grows and when it ends; one `key` per turn per source (replace on each update). */
export const liveTurnSchema = z.lazy(() => schemas().liveTurnSchema);
export type LiveTurn = z.infer<typeof liveTurnSchema>;

export const liveSourceStateSchema = z.lazy(() => schemas().liveSourceStateSchema);
export type LiveSourceState = z.infer<typeof liveSourceStateSchema>;

export const liveStatusSchema = z.lazy(() => schemas().liveStatusSchema);
export type LiveStatus = z.infer<typeof liveStatusSchema>;

export const captionsStoppedSchema = z.lazy(() => schemas().captionsStoppedSchema);
export type CaptionsStopped = z.infer<typeof captionsStoppedSchema>;

/** Captions settings kept with the app's settings. */
const captionDefaults = DEFAULT_SETTINGS.captions;
export const captionsSettingsSchema = z.lazy(() => schemas().captionsSettingsSchema);
export type CaptionsSettings = z.infer<typeof captionsSettingsSchema>;

function build() {
  const cloudStreamingModelSchema = z
    .string()
    .max(60)
    .refine((id) => (findServiceModel('streaming', id)?.status ?? 'retired') !== 'retired', {
      error: (i) =>
        `${String(i.input).slice(0, 60)} is not a live model the service offers; use one of ${offeredServiceModels('streaming')
          .map((m) => m.id)
          .join(', ')}.`,
    });

  const liveSourceSchema = z.enum(['mic', 'system'] satisfies [LiveSource, LiveSource]);

  const endOfTurnSchema = z.enum(['quick', 'balanced', 'patient']);

  const captionsStartInputSchema = z
    .object({
      sources: z.array(liveSourceSchema).min(1).max(2),
      /** Record now, transcribe later: no streaming session is opened. */
      recordOnly: z.boolean().default(false),
      endOfTurn: endOfTurnSchema.default('balanced'),
      formatTurns: z.boolean().default(true),
      keyterms: z.array(z.string().trim().min(1).max(50)).max(100).default([]),
      /** Tell the speakers of the system audio apart (Speaker A, B, …); the microphone stays You. */
      speakerLabels: z.boolean().default(false),
      /** The cloud's streaming model (`speech_model`); absent: the service's default. The local engine runs the live model of Settings → Models. */
      speechModel: cloudStreamingModelSchema.optional(),
      /** A label for the microphone and system inputs, kept with the session. */
      deviceLabels: z.partialRecord(liveSourceSchema, z.string().max(200)).optional(),
      /** The recording's container, e.g. "audio/webm;codecs=opus". */
      recordingMime: z
        .string()
        .max(100)
        .regex(/^audio\/[a-z0-9.+-]+(;\s*codecs=[a-z0-9.,-]+)?$/i),
    })
    .strict();

  const captionsRunSchema = z.object({
    /** Small number that tags binary frames of this run. */
    run: z.number().int().positive(),
    recordingId: z.string(),
    title: z.string(),
    startedAt: z.string(),
  });

  const liveWordSchema = z.object({
    text: z.string(),
    /** ms from the start of the run. */
    start: z.number().int(),
    end: z.number().int(),
    confidence: z.number(),
    final: z.boolean(),
  });

  const liveTurnSchema = z.object({
    run: z.number().int(),
    source: liveSourceSchema,
    key: z.string(),
    text: z.string(),
    words: z.array(liveWordSchema),
    /** The turn ended (and, with formatting on, this is its formatted text). */
    final: z.boolean(),
    /** ms from the start of the run. */
    startMs: z.number().int(),
    endMs: z.number().int(),
    /** Wall clock (epoch ms) main received the turn; the renderer measures capture → screen with it. */
    receivedAt: z.number(),
    /** Capture time (epoch ms) of the last audio frame this turn's words reach, when known. */
    capturedAt: z.number().nullable(),
    /** System audio with speaker labels: who spoke the finished turn ("A", "B", …, or a remembered voice's name); absent or null otherwise. */
    speaker: z.string().max(100).nullable().optional(),
    /** The remembered voice's name when the local engine recognised the speaker (then `speaker` is that name too). */
    speakerName: z.string().max(100).nullish(),
    /** The service relabelled this turn's speaker after it was shown (a SpeakerRevision): the captions mark the line quietly. */
    revised: z.boolean().optional(),
  });

  const liveSourceStateSchema = z.enum(['connecting', 'live', 'reconnecting', 'recording', 'stopped', 'failed']);

  const liveStatusSchema = z.object({
    run: z.number().int(),
    source: liveSourceSchema,
    state: liveSourceStateSchema,
    /** A sentence for the user (the reconnect notice, a close code explained), or null. */
    message: z.string().nullable(),
    /**
     * The service's warning for this source's session, kept while the run lasts (null: none), e.g.
     * `slower_than_real_time` when the local live model cannot keep up: the screen offers a smaller model.
     */
    warning: z.object({ code: z.string().max(60), message: z.string().max(500) }).nullish(),
  });

  const captionsStoppedSchema = z.object({
    run: z.number().int(),
    recordingId: z.string(),
    turns: z.number().int(),
    durationMs: z.number().int(),
    hasAudio: z.boolean(),
    /** Audio not transcribed while a socket was down (the recording keeps it). */
    lostMs: z.number().int(),
  });

  const captionsSettingsSchema = z.object({
    micDeviceId: z.string().max(500).default(captionDefaults.micDeviceId),
    echoCancellation: z.boolean().default(captionDefaults.echoCancellation),
    noiseSuppression: z.boolean().default(captionDefaults.noiseSuppression),
    autoGainControl: z.boolean().default(captionDefaults.autoGainControl),
    sources: z.enum(['mic', 'system', 'both']).default(captionDefaults.sources),
    endOfTurn: endOfTurnSchema.default(captionDefaults.endOfTurn),
    formatTurns: z.boolean().default(captionDefaults.formatTurns),
    keyterms: z
      .array(z.string().trim().min(1).max(50))
      .max(100)
      .default(() => [...captionDefaults.keyterms]),
    recordOnly: z.boolean().default(captionDefaults.recordOnly),
    /** Translate final turns into this language ('' or absent: off). */
    translateTo: z.string().max(20).optional(),
    /** Tell the speakers of the system audio apart (absent: off). */
    speakerLabels: z.boolean().optional(),
    /** The cloud's streaming model (absent: the service's default, STREAMING_DEFAULT_MODEL). */
    speechModel: z.string().max(60).optional(),
    overlay: z
      .object({
        fontSize: z.number().int().min(16).max(72).default(captionDefaults.overlay.fontSize),
        lines: z.number().int().min(1).max(3).default(captionDefaults.overlay.lines),
        /** Background opacity, 0.3–1. */
        opacity: z.number().min(0.3).max(1).default(captionDefaults.overlay.opacity),
        textColor: z
          .string()
          .regex(/^#[0-9a-f]{6}$/i)
          .default(captionDefaults.overlay.textColor),
        backgroundColor: z
          .string()
          .regex(/^#[0-9a-f]{6}$/i)
          .default(captionDefaults.overlay.backgroundColor),
        clickThrough: z.boolean().default(captionDefaults.overlay.clickThrough),
      })
      .default(() => ({ ...captionDefaults.overlay })),
  });
  return {
    cloudStreamingModelSchema,
    liveSourceSchema,
    endOfTurnSchema,
    captionsStartInputSchema,
    captionsRunSchema,
    liveWordSchema,
    liveTurnSchema,
    liveSourceStateSchema,
    liveStatusSchema,
    captionsStoppedSchema,
    captionsSettingsSchema,
  };
}
