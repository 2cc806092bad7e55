/**
 * Translated lines of live captions: each final turn (never a partial, so
 * nothing flickers) is translated once through the gateway, one request at a
 * time, in order. The queue holds a few turns; when translation falls behind,
 * the oldest waiting turn is dropped and the user told, so captions never
 * wait on it and memory stays bounded.
 */
import { languageName, type LiveTranslation, type TranslationStatus } from '../../../shared/captions-extras';
import type { LiveTurn } from '../../../shared/captions';

/** Final turns that may wait for translation: more than this and the oldest is dropped. */
export const TRANSLATION_QUEUE_MAX = 3;

/** A gateway model that can translate, or why there is none. */
export type Translator =
  { model: string; region: string; complete(system: string, user: string, signal: AbortSignal): Promise<string> } | { unavailable: string };

export interface TranslationDeps {
  /** The model to translate with (the current region's gateway: the installed local model, or the cloud's). */
  translator(): Promise<Translator>;
  translated(t: LiveTranslation): void;
  status(s: TranslationStatus): void;
  /** Kept with the session as it arrives. */
  save(recordingId: string, turn: LiveTurn, language: string, text: string): void;
  log?: (message: string) => void;
}

interface Active {
  run: number;
  recordingId: string;
  language: string;
  translator: Translator | null;
  queue: LiveTurn[];
  busy: boolean;
  dropped: number;
  abort: AbortController;
}

export class TranslationQueue {
  private active: Active | null = null;
  /** The most turns that waited at once since the queue was made (the bench prints it). */
  maxDepth = 0;
  private lastStatus: TranslationStatus = { run: null, language: null, state: 'off', model: null, region: null, dropped: 0, maxDepth: 0, message: null };

  constructor(
    private readonly deps: TranslationDeps,
    private readonly max = TRANSLATION_QUEUE_MAX,
  ) {}

  status(): TranslationStatus {
    return this.lastStatus;
  }

  /** Start translating the run's final turns into `language`; answers once the model is known. */
  async start(run: number, recordingId: string, language: string): Promise<TranslationStatus> {
    this.stop();
    const a: Active = { run, recordingId, language, translator: null, queue: [], busy: false, dropped: 0, abort: new AbortController() };
    this.active = a;
    this.emit(a, 'on', null);
    let translator: Translator;
    try {
      translator = await this.deps.translator();
    } catch (e) {
      translator = { unavailable: `Translation is not available: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (this.active !== a) return this.lastStatus;
    a.translator = translator;
    if ('unavailable' in translator) {
      a.queue = [];
      return this.emit(a, 'unavailable', translator.unavailable);
    }
    this.emit(a, 'on', null);
    void this.pump(a);
    return this.lastStatus;
  }

  /** Translation off (the run stopped, or the user chose none): what waits is forgotten, a request in flight is cancelled. */
  stop(): void {
    const a = this.active;
    if (!a) return;
    this.active = null;
    a.abort.abort();
    a.queue = [];
    this.lastStatus = { ...this.lastStatus, state: 'off', message: null };
    this.deps.status(this.lastStatus);
  }

  /** A turn of the run as shown: only a final one is queued. */
  push(turn: LiveTurn): void {
    const a = this.active;
    if (!a || !turn.final || turn.run !== a.run || !turn.text.trim()) return;
    if (a.translator && 'unavailable' in a.translator) return;
    a.queue.push(turn);
    if (a.queue.length > this.max) {
      // The oldest waiting line is the least useful by the time it would come: it goes.
      a.queue.shift();
      a.dropped++;
      this.emit(
        a,
        'on',
        `Translation fell behind, so ${a.dropped === 1 ? 'one line was' : `${a.dropped} lines were`} left untranslated to keep up with the captions.`,
      );
    }
    if (a.queue.length > this.maxDepth) {
      this.maxDepth = a.queue.length;
      this.emit(a, 'on', this.lastStatus.message);
    }
    if (a.translator) void this.pump(a);
  }

  private emit(a: Active, state: TranslationStatus['state'], message: string | null): TranslationStatus {
    const t = a.translator && !('unavailable' in a.translator) ? a.translator : null;
    this.lastStatus = {
      run: a.run,
      language: a.language,
      state,
      model: t?.model ?? null,
      region: t?.region ?? null,
      dropped: a.dropped,
      maxDepth: this.maxDepth,
      message,
    };
    this.deps.status(this.lastStatus);
    return this.lastStatus;
  }

  private async pump(a: Active): Promise<void> {
    if (a.busy) return;
    a.busy = true;
    try {
      while (this.active === a && a.queue.length > 0) {
        const turn = a.queue.shift()!;
        const t = a.translator;
        if (!t || 'unavailable' in t) return;
        let text: string;
        try {
          text = firstLine(await t.complete(instructions(a.language), turn.text, a.abort.signal));
        } catch (e) {
          if (a.abort.signal.aborted) return;
          this.deps.log?.(`captions: a line was not translated: ${e instanceof Error ? e.message : String(e)}`);
          this.emit(a, 'on', `A line could not be translated: ${e instanceof Error ? e.message : String(e)}`);
          continue;
        }
        if (this.active !== a || !text) continue;
        try {
          this.deps.save(a.recordingId, turn, a.language, text);
        } catch (e) {
          this.deps.log?.(`captions: a translation was not saved: ${e instanceof Error ? e.message : String(e)}`);
        }
        this.deps.translated({ run: a.run, key: turn.key, language: a.language, text });
      }
    } finally {
      a.busy = false;
    }
  }
}

function instructions(language: string): string {
  return `Translate the user's text into ${languageName(language)} (${language}). Answer with the translation only, on one line, with no notes or quotes.`;
}

/** A model may add a blank line or a note after the translation: the first line is the translation. */
function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? ''
  ).slice(0, 2000);
}
