/** What every part of the IPC contract shares: the contract's shape and the small schemas many channels reuse. */
import { z } from 'zod';

/** A request channel: its input and output schemas. */
export type Contracts = Record<string, { input: z.ZodType; output: z.ZodType }>;

export const none = z.undefined();
/** A recording length measured by the renderer (ms; at most 10 h, the cloud's limit). */
export const durationHint = z.number().int().nonnegative().max(36_000_000);
export const idInput = z.object({ id: z.string().min(1) }).strict();
/** An export's explicit rebuild: caption lines of this many characters. */
export const captionChars = z.number().int().min(8).max(200).optional();
export const okOutput = z.object({ ok: z.literal(true) });
