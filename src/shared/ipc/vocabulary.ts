/** The vocabulary and "Fix everywhere": terms learned from corrections, and one correction applied across the library with one undo. */
import { z } from 'zod';
import { snippetPartSchema } from '../library';
import { vocabularyTermSchema } from '../vocabulary-schema';
import type { Contracts } from './common';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

/** A word as the user corrects it: one word (no spaces), the form to find. */
const wrongForm = z.lazy(() => schemas().wrongForm);
/** What it becomes: a word or a short phrase. */
const rightForm = z.lazy(() => schemas().rightForm);

export const fixMatchSchema = z.lazy(() => schemas().fixMatchSchema);
export type FixMatch = z.infer<typeof fixMatchSchema>;

export const vocabularyChannels = {
  /** Add a term to Settings → Vocabulary (once, any case); answers the whole list. */
  'vocabulary.add': {
    input: z.lazy(() => z.object({ term: vocabularyTermSchema }).strict()),
    output: z.lazy(() => z.object({ vocabulary: z.array(z.string()) })),
  },
  /**
   * Fix everywhere, step 1: the transcripts whose shown version holds `from` as a word (any case,
   * punctuation around it ignored), newest first, at most `limit`; `total` counts those found, which
   * is all of them unless `complete` is false (a very common word: the search stopped early).
   */
  'vocabulary.fixFind': {
    input: z.lazy(() => z.object({ from: wrongForm, limit: z.number().int().min(1).max(500).default(200) }).strict()),
    output: z.lazy(() => z.object({ matches: z.array(fixMatchSchema), total: z.number().int().nonnegative(), complete: z.boolean() })),
  },
  /** Step 2: write `to` for every `from` in these recordings' transcripts (capitals and punctuation around each kept). One undo brings all back. */
  'vocabulary.fixApply': {
    input: z.lazy(() => z.object({ from: wrongForm, to: rightForm, recordingIds: z.array(z.string().min(1)).min(1).max(500) }).strict()),
    output: z.lazy(() => z.object({ batchId: z.string(), recordings: z.number().int().nonnegative(), words: z.number().int().nonnegative() })),
  },
  /** Undo a Fix everywhere: each word it changed goes back, unless it was edited since. */
  'vocabulary.fixUndo': {
    input: z.lazy(() => z.object({ batchId: z.string().min(1) }).strict()),
    output: z.lazy(() => z.object({ recordings: z.number().int().nonnegative(), words: z.number().int().nonnegative() })),
  },
} as const satisfies Contracts;

function build() {
  const wrongForm = z.string().trim().min(1).max(100);

  const rightForm = z.string().trim().min(1).max(100);

  const fixMatchSchema = z.object({
    recordingId: z.string(),
    title: z.string(),
    /** Words of the shown transcript that read as the wrong form. */
    count: z.number().int().positive(),
    /** One sentence where it appears, the wrong form marked. */
    snippet: z.array(snippetPartSchema),
  });
  return { wrongForm, rightForm, fixMatchSchema };
}
