/**
 * "Translate…" in the subtitle editor: the source's cues into a second track
 * (library/subtitle-translations.ts) with the same timings, through the chat's
 * model (an installed GGUF on the local engine, or the cloud gateway: the same
 * GatewayClient), part by part (cue-translate.ts). Progress counts cues; Stop
 * keeps the parts done; a second run on the same language continues with the
 * cues not yet translated or whose source text changed since.
 */
import { insightNeeds, type ChatModel } from '../../../shared/chat/schema';
import { AppError } from '../../../shared/errors';
import type { ServiceClients } from '../clients';
import type { Library } from '../library/library';
import { cueLine } from '../library/subtitle-translations';
import { wordsFromCues } from '../library/subtitle-import';
import { unpackCues } from '../../../shared/subtitles/cue-columns';
import type { Cue } from '../../../shared/subtitles/index';
import { tooSmallForCues, translateCues, type CueToTranslate } from './cue-translate';

export interface SubtitleTranslateProgress {
  id: string;
  trackId: string;
  language: string;
  done: number;
  total: number;
  running: boolean;
  /** Waiting out the model's rate limit until then (ISO time); null when not. */
  waitingUntil: string | null;
}

/** The longest rate-limit wait taken; a longer one ends the run (what is done is kept). */
const MAX_WAIT_MS = 10 * 60_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // Stopped already (a Stop can arrive while the wait is announced).
    if (signal.aborted) return reject(new AppError('canceled', 'Stopped.'));
    const t = setTimeout(done, ms);
    function done() {
      signal.removeEventListener('abort', stop);
      resolve();
    }
    function stop() {
      clearTimeout(t);
      reject(new AppError('canceled', 'Stopped.'));
    }
    signal.addEventListener('abort', stop, { once: true });
  });
}

export interface TranslatedTrack {
  id: string;
  title: string;
  language: string;
  done: number;
  total: number;
}

/** The cues the editor shows for `id`, read on the library's worker. */
export async function sourceCues(library: Library, id: string): Promise<Cue[]> {
  return unpackCues((await library.offload.openSubtitles(id)).cues);
}

export class SubtitleTranslator {
  private readonly running = new Map<string, { abort: AbortController; last: SubtitleTranslateProgress }>();

  constructor(
    private readonly library: Library,
    private readonly clients: ServiceClients,
    private readonly models: () => Promise<{ models: ChatModel[]; defaultModel: string | null }>,
    private readonly progress: (p: SubtitleTranslateProgress) => void = () => undefined,
  ) {}

  /** The run on `id` now, if any. */
  current(id: string): SubtitleTranslateProgress | null {
    return this.running.get(id)?.last ?? null;
  }

  stop(id: string): boolean {
    const run = this.running.get(id);
    if (!run) return false;
    run.abort.abort();
    return true;
  }

  dispose(): void {
    for (const r of this.running.values()) r.abort.abort();
  }

  async translate(req: { id: string; language: string; model?: string | undefined }, signal?: AbortSignal): Promise<TranslatedTrack> {
    const language = req.language.trim();
    if (!language) throw new AppError('bad_request', 'Choose the language to translate into.');
    if (this.running.has(req.id)) throw new AppError('conflict', 'These subtitles are being translated already. Wait for it, or press Stop.');
    if (this.library.translations.state(req.id))
      throw new AppError('bad_request', 'This track is a translation: open its source to translate the subtitles again.');
    const { models, defaultModel } = await this.models();
    const modelId = req.model && models.some((m) => m.id === req.model) ? req.model : defaultModel;
    const model = models.find((m) => m.id === modelId) ?? null;
    const needs = insightNeeds('translation', model);
    if (needs || !model)
      throw new AppError('unavailable', needs ?? 'Translation needs a chat model: download one in Settings → Models, or add a cloud key in Settings.');
    // The source's cues are read on the library's worker: building an hour's cues from its words takes the event loop too long.
    const source = await sourceCues(this.library, req.id);
    const lines = source.map(cueLine);
    const small = tooSmallForCues(model, Math.max(0, ...lines.map((l) => l.length)), language);
    if (small) throw new AppError('unavailable', small);
    const gateway = await this.clients.gateway();
    const abort = new AbortController();
    const onAbort = () => abort.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const trackId = this.library.translations.open(req.id, source, language, model.id);
    const state = this.library.translations.state(trackId)!;
    this.library.translations.align(trackId, source);
    const todo: CueToTranslate[] = [];
    source.forEach((c, index) => {
      const line = lines[index] ?? cueLine(c);
      if (line && state.sources[`${c.start}-${c.end}`] !== line) todo.push({ index, text: line });
    });
    let done = source.length - todo.length;
    const run: { abort: AbortController; last: SubtitleTranslateProgress } = {
      abort,
      last: { id: req.id, trackId, language, done, total: source.length, running: true, waitingUntil: null },
    };
    this.running.set(req.id, run);
    const tell = (running: boolean) => {
      run.last = { ...run.last, done, running };
      this.progress(run.last);
    };
    tell(true);
    try {
      await translateCues({
        todo,
        all: lines,
        language,
        contextLength: model.contextLength,
        call: async (body, sig) => {
          // A rate limit (the cloud's, or the local engine's per minute) is waited out, as the chat does, and shown.
          for (;;) {
            try {
              return (await gateway.chat({ model: model.id, ...body }, sig)).choices[0]?.message.content ?? '';
            } catch (e) {
              if (sig.aborted || !(e instanceof AppError) || e.code !== 'rate_limited') throw e;
              const waitMs = Math.max(1000, (e.retryAfter ?? 30) * 1000);
              if (waitMs > MAX_WAIT_MS) throw e;
              run.last = { ...run.last, waitingUntil: new Date(Date.now() + waitMs).toISOString() };
              this.progress(run.last);
              await sleep(waitMs, sig);
              run.last = { ...run.last, waitingUntil: null };
            }
          }
        },
        onPart: (part) => {
          this.library.translations.writePart(trackId, source, part);
          done += part.length;
          tell(true);
        },
        signal: abort.signal,
      });
    } catch (e) {
      if (abort.signal.aborted) throw new AppError('canceled', `Stopped. ${done} of ${source.length} cues are translated; Translate… continues from there.`);
      const why = e instanceof Error ? e.message : String(e);
      throw new AppError(
        e instanceof AppError ? e.code : 'server_error',
        done > 0 ? `${done} of ${source.length} cues are translated and kept; the rest stopped: ${why} Translate… again continues from there.` : why,
        { cause: e },
      );
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.running.delete(req.id);
      this.library.translations.settle(trackId, (cues) => wordsFromCues(cues).words);
      tell(false);
    }
    return { id: trackId, title: this.library.recordings.item(trackId).title, language, done, total: source.length };
  }
}
