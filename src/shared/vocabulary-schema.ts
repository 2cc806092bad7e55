/** The vocabulary's schemas (Settings, the vocabulary channels), apart from vocabulary.ts so the renderer's first chunk loads no zod. */
import { z } from 'zod';
import { VOCABULARY_MAX_CHARS, VOCABULARY_MAX_TERMS, VOCABULARY_MAX_WORDS } from './vocabulary';
import { lazySchemas } from './lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

export const vocabularyTermSchema = z.lazy(() => schemas().vocabularyTermSchema);
export const vocabularySchema = z.lazy(() => schemas().vocabularySchema);

function build() {
  const vocabularyTermSchema = z
    .string()
    .trim()
    .min(1)
    .max(VOCABULARY_MAX_CHARS)
    .refine((t) => t.split(/\s+/).length <= VOCABULARY_MAX_WORDS, `A term has at most ${VOCABULARY_MAX_WORDS} words.`);

  const vocabularySchema = z.array(vocabularyTermSchema).max(VOCABULARY_MAX_TERMS);
  return { vocabularyTermSchema, vocabularySchema };
}
