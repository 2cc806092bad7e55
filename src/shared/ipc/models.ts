/** Local models (Settings → Models; DESIGN.md §6b). */
import { z } from 'zod';
import { settingsViewSchema } from '../settings';
import { downloadStatusSchema, modelsListSchema } from '../models/view';
import { modelIdSchema } from '../models/catalog';
import { modelOfferSchema, speedTestSchema } from '../models/offer';
import { none, type Contracts } from './common';
import { fileRefSchema } from './files';

export const modelChannels = {
  // Local models (Settings → Models; DESIGN.md §6b). Downloads answer at once; `models.progress` events follow.
  /** Every catalog model with its install and download state, other installed models, the folder and its free space. */
  'models.list': { input: none, output: modelsListSchema },
  /** Start (or resume) a download; a disk too full answers with state 'failed' and the reason. */
  /** `direct`: from the publisher's address even when a download mirror is set (the mirror's file matched no published version). */
  'models.download': { input: z.lazy(() => z.object({ id: modelIdSchema, direct: z.boolean().optional() }).strict()), output: downloadStatusSchema },
  'models.pause': { input: z.lazy(() => z.object({ id: modelIdSchema }).strict()), output: z.lazy(() => downloadStatusSchema.nullable()) },
  'models.resume': { input: z.lazy(() => z.object({ id: modelIdSchema }).strict()), output: downloadStatusSchema },
  /** Stop a download and delete its partial file. */
  'models.cancel': { input: z.lazy(() => z.object({ id: modelIdSchema }).strict()), output: z.lazy(() => downloadStatusSchema.nullable()) },
  /** Delete an installed model (a default that named it falls back to the built-in). */
  'models.delete': {
    input: z.lazy(() => z.object({ id: modelIdSchema }).strict()),
    output: z.lazy(() => z.object({ freedBytes: z.number().int().nonnegative() })),
  },
  /**
   * Install from an archive, a .gguf or a folder the user picked, as a FileRef
   * (shared/ipc/files.ts): Electron gives its path; host mode first POSTs the file
   * to `/upload` as for jobs.addFiles and names the upload with the file's `name`. `id` is the catalog entry the user
   * chose (two entries can share an archive name); without it the name picks the entry.
   * Host mode takes a `path` only when it was picked this session or lies under `--folder`.
   */
  'models.installFile': {
    input: z.lazy(() => z.object({ file: fileRefSchema, id: modelIdSchema.optional() }).strict()),
    output: z.lazy(() => z.object({ id: modelIdSchema })),
  },
  /** The default model for files or live captions ('' = the built-in PocketSphinx); it must be installed and made for that task. */
  'models.setDefault': {
    input: z.lazy(() => z.object({ task: z.enum(['files', 'live']), id: z.union([z.literal(''), modelIdSchema]) }).strict()),
    output: settingsViewSchema,
  },
  /** The model that suits this computer for a first run (memory, cores, free disk; the language setting, else `locale`), and whether it was dismissed or taken. */
  'models.offer': { input: z.lazy(() => z.object({ locale: z.string().max(35).optional() }).strict()), output: modelOfferSchema },
  /** "Not now" on the first-run offer, remembered. */
  'models.dismissOffer': { input: none, output: z.lazy(() => z.object({ dismissed: z.literal(true) })) },
  /** Take the offer: the download starts, and the model becomes the one for files once installed (unless another was chosen meanwhile). */
  'models.acceptOffer': { input: z.lazy(() => z.object({ id: modelIdSchema, locale: z.string().max(35).optional() }).strict()), output: downloadStatusSchema },
  /** Transcribe the clip that ships with the app with an installed files model through the local engine, and keep the speed measured. */
  'models.test': { input: z.lazy(() => z.object({ id: modelIdSchema }).strict()), output: speedTestSchema },
  /** The speeds measured on this computer, by model id. */
  'models.speeds': { input: none, output: z.lazy(() => z.record(z.string(), speedTestSchema)) },
} as const satisfies Contracts;
