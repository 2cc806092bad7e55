/**
 * Remembered voices for live captions: before a session with speaker labels on the local engine, its
 * people's centroid voiceprints and the user's match threshold go to that engine (PUT
 * /v2/voiceprints/known, over loopback with its per-launch key), which then names them instead of giving
 * them a letter. Only the captions service calls this, and only for the local engine: a voiceprint never
 * goes to a cloud region.
 */
import { MAX_KNOWN_VOICES } from '../../../shared/voices/wire';
import { httpError, send } from '../client/http';

export interface LiveVoices {
  threshold: number;
  voices: { name: string; model: string; vector: Float32Array }[];
}

/** Tells the local engine at `engine` the remembered voices; answers the names it was told. */
export async function tellLocalEngine(engine: { url: string; key: string }, known: LiveVoices): Promise<string[]> {
  // The engine takes a few hundred; a larger library sends its first ones (most people record far fewer).
  const voices = known.voices.slice(0, MAX_KNOWN_VOICES).map((v) => ({
    name: v.name,
    model: v.model,
    vector: Array.from(v.vector, (x) => Math.round(x * 1e6) / 1e6),
  }));
  const res = await send({
    method: 'PUT',
    url: `${engine.url}/v2/voiceprints/known`,
    headers: { authorization: engine.key },
    json: { threshold: known.threshold, voices },
    idleTimeoutMs: 30_000,
  });
  if (res.status !== 200) throw httpError(res, 'telling the local engine the remembered voices');
  return voices.map((v) => v.name);
}
