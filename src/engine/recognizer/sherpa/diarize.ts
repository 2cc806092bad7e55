/**
 * Speaker diarization for a job: finds the installed segmentation and
 * embedding models, checks their metadata and shapes once (before native code
 * first loads them), runs the clustering the request asks for in the native
 * worker child under a deadline, and answers turns in milliseconds. A model
 * that is missing, malformed or kills the child is a DiarizationError with a
 * sentence the user can act on; the engine never goes down with it.
 */
import { stat } from 'node:fs/promises';
import type { ModelTask } from '../../../shared/models/catalog';
import { ModelFileError, ModelsFolder } from '../../models/folder';
import { SPEAKER_MODELS } from '../../../shared/models/speakers';
import type { NativeChild } from '../../native/child-host';
import type { SpeakerTurn } from '../../text/speakers';
import type { DiarizeModels, DiarizeRun } from './child-diarize';
import { checkEmbedding, checkSegmentation, ModelCheckError, type SegmentationFacts } from './diarize-check';
import { clusterAsAsked, type Clustering, type DiarizedSegment, type SpeakerCounts, paddedLength } from './diarize-plan';
import { checkOnnx, OnnxFileError } from './onnx-check';

export class DiarizationError extends Error {}

export interface InstalledModel {
  id: string;
  name: string;
  path: string;
}

/** The ids a user is told to download when nothing is installed (the first catalog entry of each task). */
function suggestion(task: ModelTask): string {
  const e = SPEAKER_MODELS.find((m) => m.task === task);
  return e ? `${e.name} (${e.id})` : task === 'segmentation' ? 'a pyannote segmentation model' : 'a speaker-embedding model';
}

/**
 * The installed model of `task` in the models folder: catalog order first, then by id. A folder counts once
 * its manifest is written and its model file is a regular file inside it; broken ones are passed over.
 */
export async function findInstalled(models: ModelsFolder, task: 'segmentation' | 'embedding'): Promise<InstalledModel | null> {
  const rank = (id: string): number => {
    const i = SPEAKER_MODELS.findIndex((m) => m.id === id);
    return i < 0 ? SPEAKER_MODELS.length : i;
  };
  const found = (await models.list(task)).sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
  for (const m of found) {
    try {
      return { id: m.id, name: m.manifest.name, path: await models.file(m, 'model') };
    } catch (err) {
      if (!(err instanceof ModelFileError)) throw err;
    }
  }
  return null;
}

/** The models diarization would use now, or the sentence saying what to download. */
export async function diarizationModels(
  models: ModelsFolder | null,
): Promise<{ segmentation: InstalledModel; embedding: InstalledModel } | { missing: string }> {
  const segmentation = models ? await findInstalled(models, 'segmentation') : null;
  const embedding = models ? await findInstalled(models, 'embedding') : null;
  if (segmentation && embedding) return { segmentation, embedding };
  const need = [
    !segmentation ? `a segmentation model such as ${suggestion('segmentation')}` : null,
    !embedding ? `a speaker-embedding model such as ${suggestion('embedding')}` : null,
  ]
    .filter(Boolean)
    .join(' and ');
  return {
    missing: `speaker_labels needs speaker diarization models on the local engine, and ${need} ${segmentation || embedding ? 'is' : 'are'} not installed. Download ${segmentation || embedding ? 'it' : 'them'} in Settings → Models (Speakers), or use a cloud region.`,
  };
}

export interface DiarizeJob {
  rawPath: string;
  /** Samples in the raw file (16 kHz mono). */
  samples: number;
  counts: SpeakerCounts;
  models: { segmentation: InstalledModel; embedding: InstalledModel };
  signal?: AbortSignal;
}

export interface DiarizeResult {
  turns: SpeakerTurn[];
  warning: string | null;
}

export interface DiarizerOptions {
  child: NativeChild;
  numThreads?: number;
  /** Deadline of one clustering run: this much plus `perAudioSecondMs` for each second of audio. */
  baseTimeoutMs?: number;
  perAudioSecondMs?: number;
}

export class Diarizer {
  private readonly checked = new Map<string, { mtimeMs: number; facts: SegmentationFacts | null }>();

  constructor(private readonly opts: DiarizerOptions) {}

  /** Checks a model file once per version of it; throws a DiarizationError naming the model. */
  private async check(model: InstalledModel, kind: 'segmentation' | 'embedding'): Promise<SegmentationFacts | null> {
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(model.path)).mtimeMs;
    } catch {
      throw new DiarizationError(`The ${kind} model ${model.name} (${model.id}) is missing its file; delete it and download it again in Settings → Models.`);
    }
    const seen = this.checked.get(model.path);
    if (seen && seen.mtimeMs === mtimeMs) return seen.facts;
    try {
      const o = await checkOnnx(model.path);
      const info = { metadata: o.metadata, inputs: o.inputInfo, outputs: o.outputInfo };
      const label = `The ${kind} model ${model.name} (${model.id})`;
      const facts = kind === 'segmentation' ? checkSegmentation(info, label) : (checkEmbedding(info, label), null);
      this.checked.set(model.path, { mtimeMs, facts });
      return facts;
    } catch (err) {
      if (err instanceof ModelCheckError || err instanceof OnnxFileError)
        throw new DiarizationError(`${err.message}; it cannot be used for speaker labels. Delete it and download it again in Settings → Models.`);
      throw err;
    }
  }

  async diarize(job: DiarizeJob): Promise<DiarizeResult> {
    const seg = await this.check(job.models.segmentation, 'segmentation');
    await this.check(job.models.embedding, 'embedding');
    if (!seg) throw new DiarizationError('the segmentation model could not be read');
    const windowShift = Math.round(seg.windowSize * 0.1);
    const models: DiarizeModels = { segmentation: job.models.segmentation.path, embedding: job.models.embedding.path, numThreads: this.opts.numThreads ?? 1 };
    const padTo = paddedLength(job.samples, seg.windowSize, windowShift);
    const seconds = Math.max(job.samples, padTo ?? 0) / 16000;
    const timeoutMs = (this.opts.baseTimeoutMs ?? 60_000) + seconds * (this.opts.perAudioSecondMs ?? 500);
    const child = this.opts.child;
    const onAbort = (): void => child.restart('diarization: the job was canceled');
    job.signal?.addEventListener('abort', onAbort, { once: true });
    const run = async (clustering: Clustering): Promise<DiarizedSegment[]> => {
      job.signal?.throwIfAborted();
      const payload: DiarizeRun = { models, rawPath: job.rawPath, padTo, clustering };
      try {
        return await child.request<DiarizedSegment[]>('diarize.run', payload, { timeoutMs });
      } catch (err) {
        job.signal?.throwIfAborted();
        const why = err instanceof Error ? err.message : String(err);
        throw new DiarizationError(
          `Speaker diarization failed with the models ${job.models.segmentation.id} and ${job.models.embedding.id} (${why}). If it happens again, delete and download them again in Settings → Models.`,
        );
      }
    };
    try {
      const outcome = await clusterAsAsked(job.counts, run);
      const endMs = (job.samples / 16000) * 1000;
      const turns = outcome.segments
        .map((s) => ({ start: Math.round(s.start * 1000), end: Math.min(Math.round(s.end * 1000), Math.round(endMs)), speaker: s.speaker }))
        .filter((t) => t.end > t.start);
      return { turns, warning: outcome.warning };
    } finally {
      job.signal?.removeEventListener('abort', onAbort);
      if (child.running) await child.request('diarize.forget', null, { timeoutMs: 10_000 }).catch(() => undefined);
    }
  }
}

/** What routes and jobs ask of speaker diarization (EngineContext.speakers). */
export interface SpeakerLabels {
  /** The models a job would use now, or the sentence saying what to download. */
  models(): ReturnType<typeof diarizationModels>;
  diarize(job: DiarizeJob): Promise<DiarizeResult>;
  close(): void;
}

/** Diarization over the models installed in the models folder (a path, or the engine's one reader), run in its own native worker child. */
export function createSpeakerLabels(models: ModelsFolder | string, child: NativeChild, opts: Omit<DiarizerOptions, 'child'> = {}): SpeakerLabels {
  const diarizer = new Diarizer({ ...opts, child });
  const folder = typeof models === 'string' ? new ModelsFolder(models) : models;
  return {
    models: () => diarizationModels(folder),
    diarize: (job) => diarizer.diarize(job),
    close: () => child.close(),
  };
}
