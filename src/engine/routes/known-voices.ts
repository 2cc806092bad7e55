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

export function registerKnownVoices(router: Router, known: KnownVoices): void {
  router.add('PUT', '/v2/voiceprints/known', async ({ req, res }) => {
    const parsed = KnownVoicesRequestSchema.safeParse(await readJson(req, MAX_BODY));
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw new HttpError(400, `Invalid ${i?.path.join('.') || 'body'}: ${i?.message ?? 'invalid'}`);
    }
    known.set(parsed.data);
    sendJson(res, 200, known.describe());
  });
  router.get('/v2/voiceprints/known', ({ res }) => sendJson(res, 200, known.describe()));
}
