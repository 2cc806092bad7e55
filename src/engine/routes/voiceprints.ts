/**
 * POST /v2/voiceprints (the engine's own route; API.md): the voiceprint of each stretch of an uploaded
 * file, with the installed speaker-embedding model, without any recognition. The app calls it to keep a
 * recording's turn embeddings (re-clustering in seconds, remembered voices), for local and cloud
 * transcripts alike, since the audio it sends is its own stored copy.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VoiceprintsRequestSchema, type VoiceprintsResponse } from '../../shared/voices/wire';
import type { EngineContext } from '../context';
import { decodeToRaw, DecodeError, readSamples } from '../audio/decode';
import { liveVoiceprints, VoiceprintError, type Voiceprints } from '../recognizer/speakers';
import { readJson } from './body';
import { sendJson } from './respond';
import { HttpError, type Router } from './router';

const RATE = 16000;

export function registerVoiceprints(ctx: EngineContext, router: Router): void {
  let prints: Voiceprints | null = null;
  ctx.onClose(() => prints?.close());

  router.post('/v2/voiceprints', async ({ req, res }) => {
    const parsed = VoiceprintsRequestSchema.safeParse(await readJson(req, 1024 * 1024));
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw new HttpError(400, `Invalid ${i?.path.join('.') || 'body'}: ${i?.message ?? 'invalid'}`);
    }
    const body = parsed.data;
    const id = /\/v2\/files\/([0-9a-f-]{36})$/.exec(body.upload_url)?.[1];
    const upload = id ? ctx.store.getUpload(id) : null;
    if (!upload) throw new HttpError(400, 'upload_url must be a file uploaded to this engine (POST /v2/upload).');
    prints ??= liveVoiceprints(ctx.models);
    const model = await prints.model();
    if ('missing' in model) throw new HttpError(400, model.missing.replace(/^speaker_labels needs/, 'Voiceprints need'));
    // A client that goes away stops the work: no more segments are embedded for an answer nobody reads.
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableEnded) gone.abort();
    });
    const dir = await mkdtemp(join(tmpdir(), 'verbatim-voiceprints-'));
    try {
      const raw = join(dir, 'audio.raw');
      let samples: number;
      try {
        samples = await decodeToRaw(upload.path, raw, { signal: gone.signal });
      } catch (err) {
        if (gone.signal.aborted) return;
        if (err instanceof DecodeError) throw new HttpError(400, err.message);
        throw err;
      }
      const embeddings: VoiceprintsResponse['embeddings'] = [];
      for (const s of body.segments) {
        if (gone.signal.aborted) return;
        const from = Math.min(samples, Math.round((s.start * RATE) / 1000));
        const to = Math.min(samples, Math.round((s.end * RATE) / 1000), from + 30 * RATE);
        if (to - from < RATE / 10) {
          embeddings.push(null);
          continue;
        }
        try {
          embeddings.push(Array.from(await prints.embed(model, [await readSamples(raw, from, to)]), (v) => Math.round(v * 1e6) / 1e6));
        } catch (err) {
          if (err instanceof VoiceprintError) throw new HttpError(422, err.message);
          throw err;
        }
      }
      if (!gone.signal.aborted) sendJson(res, 200, { model: model.id, embeddings } satisfies VoiceprintsResponse);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
