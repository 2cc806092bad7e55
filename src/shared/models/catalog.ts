/**
 * The model catalog's vocabulary: what a downloadable model is (an entry of
 * the catalog, as data) and what an installed one says of itself (the
 * manifest the manager writes beside its files). Main's services/models
 * downloads and installs by it; the engine loads by the manifest alone, so
 * a model installed from a file, or made by a test, needs no catalog entry.
 */
import { z } from 'zod';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

/** What a model is for: transcribing files, live captions, the two halves of speaker diarization, or writing chat answers. */
export const modelTaskSchema = z.lazy(() => schemas().modelTaskSchema);
export type ModelTask = z.infer<typeof modelTaskSchema>;

/**
 * How the engine runs it. Each family names the files it needs by role
 * (MODEL_FILE_ROLES); sherpa-onnx runs every family but `gguf`, which
 * node-llama-cpp runs.
 */
export const modelFamilySchema = z.lazy(() => schemas().modelFamilySchema);
export type ModelFamily = z.infer<typeof modelFamilySchema>;

/** The files of each family, by role; a manifest maps every role to a path inside the model's folder. */
export const MODEL_FILE_ROLES = {
  whisper: ['encoder', 'decoder', 'tokens'],
  'nemo-transducer': ['encoder', 'decoder', 'joiner', 'tokens'],
  'nemo-ctc': ['model', 'tokens'],
  moonshine: ['preprocessor', 'encoder', 'uncachedDecoder', 'cachedDecoder', 'tokens'],
  /** Moonshine v2: one encoder and one merged decoder (sherpa-onnx's `moonshine.mergedDecoder`), no preprocessor. */
  'moonshine-v2': ['encoder', 'mergedDecoder', 'tokens'],
  /** SenseVoice: one CTC model (sherpa-onnx's `senseVoice.model`). */
  'sense-voice': ['model', 'tokens'],
  'zipformer-transducer': ['encoder', 'decoder', 'joiner', 'tokens'],
  'zipformer-ctc': ['model', 'tokens'],
  'streaming-transducer': ['encoder', 'decoder', 'joiner', 'tokens'],
  'pyannote-segmentation': ['model'],
  'speaker-embedding': ['model'],
  gguf: ['model'],
} as const satisfies Record<ModelFamily, readonly string[]>;

/** Whether the model's words come with their own times ('words'), only per decoded segment ('segments', Whisper), or not at all ('none', Moonshine). */
export const wordTimingsSchema = z.lazy(() => schemas().wordTimingsSchema);
export type WordTimings = z.infer<typeof wordTimingsSchema>;

/** A published figure and where it was published. */
export const publishedFigureSchema = z.lazy(() => schemas().publishedFigureSchema);

/** Model ids are file names too: lower case, digits, dots and dashes. */
export const modelIdSchema = z.lazy(() => schemas().modelIdSchema);

export const catalogEntrySchema = z.lazy(() => schemas().catalogEntrySchema);
export type CatalogEntry = z.infer<typeof catalogEntrySchema>;

/** The file the manager writes last into an installed model's folder; a folder without one is not installed. */
export const MODEL_MANIFEST_FILE = 'verbatim-model.json';

export const modelManifestSchema = z.lazy(() => schemas().modelManifestSchema);
export type ModelManifest = z.infer<typeof modelManifestSchema>;

/** Built-in models that need no download: PocketSphinx for speech, the extractive chat model. */
export const BUILTIN_SPEECH_MODEL = 'pocketsphinx';
export const BUILTIN_CHAT_MODEL = 'verbatim-extractive';

function build() {
  const modelTaskSchema = z.enum(['files', 'live', 'segmentation', 'embedding', 'chat']);

  const modelFamilySchema = z.enum([
    'whisper',
    'nemo-transducer',
    'nemo-ctc',
    'moonshine',
    'moonshine-v2',
    'sense-voice',
    'zipformer-transducer',
    'zipformer-ctc',
    'streaming-transducer',
    'pyannote-segmentation',
    'speaker-embedding',
    'gguf',
  ]);

  const wordTimingsSchema = z.enum(['words', 'segments', 'none']);

  const publishedFigureSchema = z.object({
    /** e.g. 'LibriSpeech test-clean', 'LibriSpeech test-other'. */
    set: z.string().min(1).max(80),
    /** WER in percent, or RTF as a ratio. */
    value: z.number().nonnegative(),
    source: z.string().url(),
  });

  const modelIdSchema = z.string().regex(/^[a-z0-9][a-z0-9.-]{0,95}$/, 'a model id is lower case letters, digits, dots and dashes');

  const catalogEntrySchema = z.object({
    /** The catalog name: what `speech_models`, the streaming `speech_model` and the gateway's `model` say, and the folder's name under models/. */
    id: modelIdSchema,
    name: z.string().min(1).max(80),
    task: modelTaskSchema,
    family: modelFamilySchema,
    /** ISO 639-1 codes; more than a few means multilingual. */
    languages: z.array(z.string().min(2).max(8)).min(1),
    /** The upstream download (a sherpa-onnx release archive, or a .gguf file). With a mirror set, the manager fetches `<mirror>/<file name of this URL>`. */
    url: z.string().url(),
    format: z.enum(['tar.bz2', 'file']),
    /** Size of the download in bytes (checked before and after). */
    sizeBytes: z.number().int().positive(),
    /** Bytes the model's kept files (those named in `files`) take once unpacked; for `format: 'file'`, equal to sizeBytes. The free-space check and the unpack bound use it. */
    unpackedBytes: z.number().int().positive(),
    /**
     * URL of the SHA-256 list upstream publishes that covers this download
     * (sherpa-onnx's release `checksum.txt`: one `name<TAB>sha256` line per
     * asset, rewritten daily), read again when a download does not match;
     * null where `sha256` is itself the published value (Hugging Face LFS at
     * a pinned revision) or upstream publishes no list.
     */
    checksums: z.string().url().nullable(),
    /** SHA-256 of the download where known (Hugging Face LFS at a pinned revision, or agreeing records of the release asset); else null, and the published list or the first download gives it. */
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable(),
    /** Paths by role inside the unpacked folder (the archive's top folder stripped); for `format: 'file'`, { model: <file name> }. */
    files: z.record(z.string(), z.string().min(1).max(200)),
    licence: z.string().min(1).max(80),
    speedClass: z.enum(['fast', 'medium', 'slow']),
    wer: z.array(publishedFigureSchema),
    rtf: publishedFigureSchema.nullable(),
    wordTimings: wordTimingsSchema,
    /** Chat models: context length in tokens and the RAM they need loaded. */
    contextLength: z.number().int().positive().nullable(),
    ramBytes: z.number().int().positive().nullable(),
    /** One sentence a user reads on the Models screen. */
    note: z.string().max(300),
  });

  const modelManifestSchema = z.object({
    id: modelIdSchema,
    name: z.string().min(1).max(80),
    task: modelTaskSchema,
    family: modelFamilySchema,
    languages: z.array(z.string().min(2).max(8)).min(1),
    /** Role → path relative to the model's folder (never absolute, never `..`). */
    files: z.record(z.string(), z.string().min(1).max(200)),
    wordTimings: wordTimingsSchema,
    /** SHA-256 of what was downloaded or installed from a file, when there was one archive. */
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable(),
    bytes: z.number().int().nonnegative(),
    installedAt: z.string(),
    contextLength: z.number().int().positive().nullable().default(null),
    ramBytes: z.number().int().positive().nullable().default(null),
  });
  return { modelTaskSchema, modelFamilySchema, wordTimingsSchema, publishedFigureSchema, modelIdSchema, catalogEntrySchema, modelManifestSchema };
}
