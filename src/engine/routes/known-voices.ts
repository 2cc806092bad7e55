/**
 * PUT and GET /v2/voiceprints/known (the engine's own routes, not AssemblyAI's): the app tells the local
 * engine its remembered voices before a live session with speaker labels, so the session names them. The
 * body is checked whole (at most MAX_KNOWN_VOICES voices, prints of one length per model, 8 MiB) and held
 * in memory only; GET answers names and models, never a voiceprint.
 */
import { KnownVoicesRequestSchema } from '../../shared/voices/wire';
import type { KnownVoices } from '../streaming/known-voices';
import { readJson } from './body';
import { sendJson } from './respond';
import { HttpError, type Router } from './router';

/** 500 voices of 1,024 values written with six decimals fit with room to spare. */
const MAX_BODY = 8 * 1024 * 1024;

/** A voiceprint's values are embeddings of order 1 (unit vectors, or a model's raw output of tens at most). */
export const MAX_PRINT_VALUE = 1e6;
/** Below float32's smallest normal number a value would be stored as a denormal or as zero. */
const MIN_PRINT_VALUE = 1.1754943508222875e-38;

/**
 * Why a voiceprint cannot be compared as it will be stored (32-bit floats), or null: a value too large (its
 * square overflows, 1e308), too small to store (1e-200 becomes 0, and a print of zeros matched every
 * speaker at threshold 0), or a print that is zero once stored.
 */
export function unusablePrint(vector: readonly number[]): string | null {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) {
    const v = vector[i] as number;
    const a = Math.abs(v);
    if (!Number.isFinite(v) || a > MAX_PRINT_VALUE) return `value ${i} (${v}) is out of range; a voiceprint's values are at most ${MAX_PRINT_VALUE} in size`;
    if (a !== 0 && a < MIN_PRINT_VALUE) return `value ${i} (${v}) is too small to store; send 0 or a value of at least ${MIN_PRINT_VALUE}`;
    const f = Math.fround(v);
    sum += f * f;
  }
  return sum > 0 && Number.isFinite(sum) ? null : 'is all zeros';
}

export function registerKnownVoices(router: Router, known: KnownVoices): void {
  router.add('PUT', '/v2/voiceprints/known', async ({ req, res }) => {
    const parsed = KnownVoicesRequestSchema.safeParse(await readJson(req, MAX_BODY));
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw new HttpError(400, `Invalid ${i?.path.join('.') || 'body'}: ${i?.message ?? 'invalid'}`);
    }
    parsed.data.voices.forEach((v, i) => {
      const why = unusablePrint(v.vector);
      if (why) throw new HttpError(400, `Invalid voices.${i}.vector: ${why}. Take the print again with POST /v2/voiceprints.`);
    });
    known.set(parsed.data);
    sendJson(res, 200, known.describe());
  });
  router.get('/v2/voiceprints/known', ({ res }) => sendJson(res, 200, known.describe()));
}
