/** Review of doubtful words: the words a user accepted as heard, kept per transcript version. */
import { z } from 'zod';
import type { Contracts } from './common';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

const transcriptRef = { id: z.string().min(1), transcriptId: z.string().min(1) };
const acceptedOutput = z.lazy(() => schemas().acceptedOutput);

export const reviewChannels = {
  /** Indexes (into `words`) of the words accepted in review, ascending; `not_found` when the version is gone. */
  'review.accepted': { input: z.lazy(() => z.object(transcriptRef).strict()), output: acceptedOutput },
  /** Accept words as heard (the text is not changed), or with `accepted: false` make them doubtful again; answers all accepted words. */
  'review.accept': {
    input: z.lazy(() =>
      z.object({ ...transcriptRef, indexes: z.array(z.number().int().nonnegative()).min(1).max(5000), accepted: z.boolean().default(true) }).strict(),
    ),
    output: acceptedOutput,
  },
} as const satisfies Contracts;

function build() {
  const acceptedOutput = z.object({ indexes: z.array(z.number().int().nonnegative()) });
  return { acceptedOutput };
}
