/**
 * "Test" on an installed model: the clip that ships with the app
 * (resources/model-test-clip.wav) transcribed by the local engine with that
 * model, once to load it and once timed, and the speed kept in
 * `<models>/.verbatim-speed.json`: the one speed figure the app calls measured.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AppError } from '../../../shared/errors';
import { speedTestSchema, type SpeedTest } from '../../../shared/models/offer';
import { RestClient } from '../client/rest';
import type { EngineHandle } from '../local-engine';
import { readManifest } from './install';
import { readSmallJsonSync } from './regular-file';
import { SmallJsonFile } from './small-json';

export const CLIP_NAME = 'model-test-clip.wav';

/** The clip beside the app: resources/ at the project root (or the packaged app's), found from wherever this bundle landed (out/main, out/host/chunks). */
export function findClip(from = import.meta.dirname): string | null {
  let dir = from;
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'resources', CLIP_NAME);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return null;
}

/** Seconds of audio in a PCM WAV, from its header (fmt's byte rate, data's size). */
export function wavSeconds(bytes: Buffer): number {
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a WAV file');
  let byteRate = 0;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = bytes.toString('ascii', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === 'fmt ') byteRate = bytes.readUInt32LE(at + 16);
    if (id === 'data' && byteRate > 0) return Math.min(size, bytes.length - at - 8) / byteRate;
    at += 8 + size + (size % 2);
  }
  throw new Error('no audio data in the WAV file');
}

export interface SpeedTestOptions {
  /** The running local engine (started if needed). */
  engine: { ensure(): Promise<EngineHandle> };
  clip?: string | null;
  /** How often the transcript's status is read while it runs (the engine is on this computer: often). */
  pollMs?: number;
  now?: () => number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SpeedTests {
  private results: Record<string, SpeedTest> = {};
  private readonly running = new Map<string, Promise<SpeedTest>>();

  constructor(
    private readonly dir: string,
    private readonly opts: SpeedTestOptions,
  ) {
    // None measured yet, or unreadable (or not a regular file): measure again.
    const raw = readSmallJsonSync(this.path);
    if (raw && typeof raw === 'object')
      for (const [id, r] of Object.entries(raw)) {
        const ok = speedTestSchema.safeParse(r);
        if (ok.success && ok.data.id === id) this.results[id] = ok.data;
      }
  }

  private jsonFile: SmallJsonFile | null = null;

  /** One writer for the file, so its writes land in the order they were asked for. */
  private get file(): SmallJsonFile {
    return (this.jsonFile ??= new SmallJsonFile(this.path));
  }

  private get path(): string {
    return join(this.dir, '.verbatim-speed.json');
  }

  all(): Record<string, SpeedTest> {
    return { ...this.results };
  }

  /** A deleted model's speed goes with it. */
  forget(id: string): Promise<void> {
    if (!(id in this.results)) return this.file.settled();
    delete this.results[id];
    return this.save();
  }

  private save(): Promise<void> {
    return this.file.write(this.results);
  }

  /** Test one model; a second call while it runs waits for the same run. */
  run(id: string): Promise<SpeedTest> {
    let p = this.running.get(id);
    if (!p) {
      p = this.measure(id).finally(() => this.running.delete(id));
      this.running.set(id, p);
    }
    return p;
  }

  private async measure(id: string): Promise<SpeedTest> {
    const manifest = await readManifest(this.dir, id);
    if (!manifest) throw new AppError('not_found', `${id} is not installed. Download it first, then test it.`);
    if (manifest.task !== 'files')
      throw new AppError('bad_request', `${manifest.name} is not a model for files; the test transcribes a recording with models for files.`);
    const clip = this.opts.clip === undefined ? findClip() : this.opts.clip;
    if (!clip || !existsSync(clip)) throw new AppError('file_unreadable', 'The test recording that comes with Verbatim is missing. Reinstall Verbatim.');
    const audioSeconds = wavSeconds(readFileSync(clip));
    const handle = await this.opts.engine.ensure();
    const client = new RestClient(handle.url, handle.key);
    // The first run loads the model (seconds for a big one); only the second is timed, as a file would run once it is loaded.
    // The engine keeps an upload for one transcript, so each run uploads the clip (not timed).
    await this.transcribe(client, await client.upload(clip), id);
    const timed = await this.transcribe(client, await client.upload(clip), id);
    const result: SpeedTest = {
      id,
      audioSeconds,
      seconds: timed.seconds,
      rtf: timed.seconds / audioSeconds,
      text: timed.text,
      measuredAt: new Date().toISOString(),
    };
    this.results[id] = result;
    await this.save();
    return result;
  }

  /** One transcript of the clip with `model`, timed from when the engine starts on it to when it is done; deleted afterwards. */
  private async transcribe(client: RestClient, audioUrl: string, model: string): Promise<{ seconds: number; text: string }> {
    const now = this.opts.now ?? (() => performance.now());
    // The engine takes an installed model's catalog name in speech_models (API.md); the wire type lists the cloud's names only.
    const created = await client.create({ audio_url: audioUrl, speech_models: [model] } as unknown as Parameters<RestClient['create']>[0]);
    // From the create's answer when a run is too quick to be seen processing; else from when it was.
    const asked = now();
    let started: number | null = created.status === 'processing' ? asked : null;
    try {
      for (;;) {
        const t = await client.get(created.id);
        if (t.status === 'processing' && started === null) started = now();
        if (t.status === 'completed') return { seconds: (now() - (started ?? asked)) / 1000, text: t.text ?? '' };
        if (t.status === 'error') throw new AppError('unsupported_media', `The model could not transcribe the test recording: ${t.error ?? 'no reason given'}`);
        await sleep(this.opts.pollMs ?? 10);
      }
    } finally {
      await client.delete(created.id).catch(() => undefined);
    }
  }
}
