/**
 * Voiceprints of stretches of audio with the installed speaker-embedding model, for live speaker labels and
 * for the app's stored turn embeddings. The model file is checked (metadata and shapes, without loading it)
 * once per version before native code reads it, and every embedding runs in its own native worker child,
 * so a broken model costs a clear error, never the engine, and a long diarization job never holds up a
 * live turn's label.
 */
import { stat } from 'node:fs/promises';
import type { ModelsFolder } from '../../models/folder';
import type { NativeChild } from '../../native/child-host';
import { SPEAKER_MODELS } from '../../../shared/models/speakers';
import type { EmbedRequest } from './child-voice';
import { checkEmbedding, ModelCheckError } from './diarize-check';
import { findInstalled, type InstalledModel } from './diarize';
import { checkOnnx, OnnxFileError } from './onnx-check';

export class VoiceprintError extends Error {}

/** What live labels and the embeddings route ask of voiceprints (EngineContext builds one per engine). */
export interface Voiceprints {
  /** The embedding model to use now, checked; or the sentence saying what to download or why it cannot be used. */
  model(): Promise<InstalledModel | { missing: string }>;
  /** The voiceprint of `parts` (16 kHz PCM16 of one voice) with `model`. Throws VoiceprintError. */
  embed(model: InstalledModel, parts: Int16Array[]): Promise<Float32Array>;
  close(): void;
}

/** The id of the catalog's first embedding model (a close reason holds only 123 bytes, so no name). */
function downloadHint(): string {
  return SPEAKER_MODELS.find((m) => m.task === 'embedding')?.id ?? 'CAM++';
}

export function createVoiceprints(models: ModelsFolder, child: NativeChild, numThreads = 1): Voiceprints {
  const checked = new Map<string, number>();
  return {
    async model() {
      const m = await findInstalled(models, 'embedding');
      if (!m) return { missing: `speaker_labels needs a speaker-embedding model such as ${downloadHint()}: download one in Settings → Models` };
      let mtime: number;
      try {
        mtime = (await stat(m.path)).mtimeMs;
      } catch {
        return { missing: `The speaker-embedding model ${m.name} (${m.id}) is missing its file; download it again in Settings → Models` };
      }
      if (checked.get(m.path) === mtime) return m;
      try {
        const o = await checkOnnx(m.path);
        checkEmbedding({ metadata: o.metadata, inputs: o.inputInfo, outputs: o.outputInfo }, `The speaker-embedding model ${m.name} (${m.id})`);
      } catch (err) {
        if (err instanceof ModelCheckError || err instanceof OnnxFileError) return { missing: `${err.message}; download it again in Settings → Models` };
        throw err;
      }
      checked.set(m.path, mtime);
      return m;
    },
    async embed(model, parts) {
      const payload: EmbedRequest = { model: model.path, numThreads, parts };
      try {
        return await child.request<Float32Array>('voice.embed', payload, { timeoutMs: 30_000 });
      } catch (err) {
        throw new VoiceprintError(
          `The speaker-embedding model ${model.id} failed (${err instanceof Error ? err.message : String(err)}); download it again in Settings → Models`,
        );
      }
    },
    close: () => child.close(),
  };
}
