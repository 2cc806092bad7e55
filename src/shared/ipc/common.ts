/** What every part of the IPC contract shares: the contract's shape and the small schemas many channels reuse. */
import { z } from 'zod';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

/** A request channel: its input and output schemas. */
export type Contracts = Record<string, { input: z.ZodType; output: z.ZodType }>;

export const none = z.lazy(() => schemas().none);
/** A recording length measured by the renderer (ms; at most 10 h, the cloud's limit). */
export const durationHint = z.lazy(() => schemas().durationHint);
export const idInput = z.lazy(() => schemas().idInput);
/** An export's explicit rebuild: caption lines of this many characters. */
export const captionChars = z.lazy(() => schemas().captionChars);
export const okOutput = z.lazy(() => schemas().okOutput);

function build() {
  const none = z.undefined();

  const durationHint = z.number().int().nonnegative().max(36_000_000);

  const idInput = z.object({ id: z.string().min(1) }).strict();

  const captionChars = z.number().int().min(8).max(200).optional();

  const okOutput = z.object({ ok: z.literal(true) });
  return { none, durationHint, idInput, captionChars, okOutput };
}
