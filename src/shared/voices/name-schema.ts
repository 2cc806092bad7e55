/**
 * A voice's name as a zod schema (names.ts has the rule). Apart from names.ts so the renderer's start, which
 * needs only MAX_VOICE_NAME, does not load zod (95 KB of script before the library shows).
 */
import { z } from 'zod';
import { checkVoiceName } from './names';

/** A voice's name as a zod schema: trimmed, then checked with checkVoiceName. */
export const voiceNameSchema = z
  .string()
  .trim()
  .superRefine((s, ctx) => {
    const why = checkVoiceName(s);
    if (why) ctx.addIssue({ code: 'custom', message: why });
  });
