/**
 * A transcript as it crosses the bridge: its words as one array per field
 * (columns) instead of one object per word. A two-hour transcript's 18,500
 * word objects are 1.9 MB of JSON, and encoding, checking and decoding them
 * held a transcript's open for ~60 ms; columns are under half the bytes and
 * check as arrays of primitives; sentences and paragraphs go without their
 * text, which is their words joined. main packs, the renderer unpacks
 * (transcript-columns.ts, kept apart so that the renderer's first chunk does
 * not load zod); both sides then see the same `Transcript`.
 */
import { z } from 'zod';
import { transcriptSchema } from './library';
import { lazySchemas } from './lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

/**
 * An array of one kind of primitive, checked in one loop: z.array(z.number())
 * checks element by element through zod's machinery, ~10 ms (60 ms cold) for a
 * two-hour transcript's columns.
 */
function arrayOf<T>(what: string, ok: (v: unknown) => boolean) {
  return z.custom<T[]>((v) => Array.isArray(v) && v.every(ok), `expected an array of ${what}`);
}
const ints = () => arrayOf<number>('integers', Number.isSafeInteger);
const numbers = () => arrayOf<number>('numbers', (v) => typeof v === 'number' && Number.isFinite(v));
const strings = () => arrayOf<string>('strings', (v) => typeof v === 'string');
const nullableStrings = () => arrayOf<string | null>('strings or nulls', (v) => v === null || typeof v === 'string');

/** The words of a transcript, one array per field, all of one length. */
export const wordColumnsSchema = z.lazy(() => schemas().wordColumnsSchema);
export type WordColumns = z.infer<typeof wordColumnsSchema>;

/** Sentences or paragraphs, one array per field; a span's text is its words joined by spaces, as main builds it (text.ts `span`), so it is not sent. */
export const spanColumnsSchema = z.lazy(() => schemas().spanColumnsSchema);
export type SpanColumns = z.infer<typeof spanColumnsSchema>;

/**
 * The answer of library.get (and of the channels that answer a whole transcript). With `partial`
 * (library.get's `firstWords`) it is the first paragraphs only: words, sentences and paragraphs up
 * to the end of the paragraph that holds word `firstWords`, `text` theirs, and no cues; `partial`
 * gives the whole transcript's counts.
 */
export const transcriptWireSchema = z.lazy(() => schemas().transcriptWireSchema);
export type TranscriptWire = z.infer<typeof transcriptWireSchema>;

function build() {
  const wordColumnsSchema = z
    .object({
      text: strings(),
      start: ints(),
      end: ints(),
      confidence: numbers(),
      speaker: nullableStrings(),
      /** What the service heard, for the words the user corrected: [index, original]. */
      original: z.array(z.tuple([z.number().int().nonnegative(), z.string()])),
    })
    .superRefine((c, ctx) => {
      const n = c.text.length;
      for (const key of ['start', 'end', 'confidence', 'speaker'] as const) {
        if (c[key].length !== n) ctx.addIssue({ code: 'custom', path: [key], message: `${key} has ${c[key].length} entries for ${n} words` });
      }
      const bad = c.original.find(([i]) => i >= n);
      if (bad) ctx.addIssue({ code: 'custom', path: ['original'], message: `original names word ${bad[0]} of ${n}` });
    });

  const spanColumnsSchema = z
    .object({
      start: ints(),
      end: ints(),
      firstWord: arrayOf<number>('word indexes', (v) => Number.isSafeInteger(v) && (v as number) >= 0),
      lastWord: arrayOf<number>('word indexes', (v) => Number.isSafeInteger(v) && (v as number) >= 0),
      speaker: nullableStrings(),
    })
    .superRefine((c, ctx) => {
      const n = c.start.length;
      for (const key of ['end', 'firstWord', 'lastWord', 'speaker'] as const) {
        if (c[key].length !== n) ctx.addIssue({ code: 'custom', path: [key], message: `${key} has ${c[key].length} entries for ${n} spans` });
      }
    });

  const transcriptWireSchema = transcriptSchema
    .unwrap()
    .omit({ words: true, sentences: true, paragraphs: true })
    .extend({
      words: wordColumnsSchema,
      sentences: spanColumnsSchema,
      paragraphs: spanColumnsSchema,
      partial: z.object({ words: z.number().int().nonnegative(), paragraphs: z.number().int().nonnegative() }).optional(),
    })
    .superRefine((t, ctx) => {
      const n = t.words.text.length;
      for (const key of ['sentences', 'paragraphs'] as const) {
        const c = t[key];
        const bad = c.firstWord.findIndex((first, i) => first > (c.lastWord[i] as number) || (c.lastWord[i] as number) >= n);
        if (bad >= 0) ctx.addIssue({ code: 'custom', path: [key, bad], message: `${key} ${bad} names words outside the ${n} of the transcript` });
      }
    });
  return { wordColumnsSchema, spanColumnsSchema, transcriptWireSchema };
}
