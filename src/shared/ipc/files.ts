/**
 * A file the user hands in, as every channel names it (DESIGN.md §3): a path the user picked or
 * dropped (desktop), or the id `/upload` gave a file a browser sent (host mode). Main turns it into
 * an opened file through one check (services/files/); no channel names a file any other way.
 */
import { z } from 'zod';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

/** An upload id as `/upload` issues them (base64url): no dot, no slash, so it names a file inside the uploads folder only. */
export const UPLOAD_ID = /^[A-Za-z0-9_-]{8,64}$/;

export const uploadIdSchema = z.lazy(() => schemas().uploadIdSchema);

export const fileRefSchema = z.lazy(() => schemas().fileRefSchema);
export type FileRef = z.infer<typeof fileRefSchema>;

function build() {
  const uploadIdSchema = z.string().regex(UPLOAD_ID, { error: 'That upload id is not one Verbatim issued. Choose the file again.' });

  /** A file name as the user sees it (an upload's original name). */
  const fileName = z.string().trim().min(1).max(500);

  const fileRefSchema = z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('path'), path: z.string().min(1).max(4096) }).strict(),
    z.object({ kind: z.literal('upload'), uploadId: uploadIdSchema, name: fileName.optional() }).strict(),
  ]);
  return { uploadIdSchema, fileRefSchema };
}
