/** The vocabulary's schemas (Settings, the vocabulary channels), apart from vocabulary.ts so the renderer's first chunk loads no zod. */
import { z } from 'zod';
import { VOCABULARY_MAX_CHARS, VOCABULARY_MAX_TERMS, VOCABULARY_MAX_WORDS } from './vocabulary';

export const vocabularyTermSchema = z
  .string()
  .trim()
  .min(1)
  .max(VOCABULARY_MAX_CHARS)
  .refine((t) => t.split(/\s+/).length <= VOCABULARY_MAX_WORDS, `A term has at most ${VOCABULARY_MAX_WORDS} words.`);
export const vocabularySchema = z.array(vocabularyTermSchema).max(VOCABULARY_MAX_TERMS);
