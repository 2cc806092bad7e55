/**
 * What runs beside live captions without ever holding them up: translated
 * lines of final turns (a bounded queue) and "What did I miss?" summaries.
 * Both go through the gateway of the current region (the installed local
 * model, the cloud's, or the offline extractive one for summaries) and are
 * kept with the session.
 */
import type { CaptionsRun, LiveTurn } from '../../../shared/captions';
import type { LiveTranslation, MissedSummary, SavedTranslation, TranslationStatus } from '../../../shared/captions-extras';
import { missedInputSchema } from '../../../shared/captions-extras';
import { AppError } from '../../../shared/errors';
import type { Library } from '../library/library';
import type { Template } from '../../../shared/templates';
import { LiveSummary } from './live-summary';
import { SilenceWatch, type StillRecording } from './silence';
import { writeMissed, type MissedModel } from './missed';
import { TranslationQueue, type Translator } from './translate';

export interface CaptionExtrasEvents {
  translation(t: LiveTranslation): void;
  translationStatus(s: TranslationStatus): void;
  missed(s: MissedSummary): void;
  /** "Still recording?": the session stops at `stopAt` unless someone speaks or keeps it (null: withdrawn). */
  stillRecording?(s: StillRecording): void;
}

export interface CaptionModels {
  translator(): Promise<Translator>;
  summariser(): Promise<MissedModel | { unavailable: string }>;
}

/** The running session as the captions service tells it. */
export interface CaptionsRunView {
  current(): { run: CaptionsRun | null; turns: LiveTurn[] };
  setObserver(o: CaptionsObserver | null): void;
  /** Stops the run, keeping what it has (a silent session no window stopped). */
  stop?(run: number): Promise<unknown>;
}

export interface CaptionsObserver {
  started(run: CaptionsRun): void;
  turn(t: LiveTurn): void;
  ended(run: CaptionsRun): void;
  current(): { translations: Record<string, string>; translation: TranslationStatus | null };
}

export class CaptionExtras implements CaptionsObserver {
  private readonly queue: TranslationQueue;
  /** The target language the user picked (kept between runs), or null. */
  private language: string | null = null;
  private translations = new Map<string, string>();
  private missedRun: { abort: AbortController; done: Promise<MissedSummary> } | null = null;
  /** The session's summary, ready at Stop. */
  readonly summary: LiveSummary;
  /** The summary at Stop of the last session that ended (tests and the bench wait on it). */
  lastSummary: Promise<MissedSummary | null> = Promise.resolve(null);
  private readonly silence: SilenceWatch;
  private silenceTimer: NodeJS.Timeout | null = null;
  private readonly tickMs: number;

  constructor(
    private readonly captions: CaptionsRunView,
    private readonly library: Library,
    private readonly models: CaptionModels,
    private readonly events: CaptionExtrasEvents,
    log?: (message: string) => void,
    opts: {
      summarySetting?: () => string | undefined;
      windowMs?: number;
      silenceMinutes?: () => number | undefined;
      /** How often the silence is checked (default 5 s, or a twelfth of a shortened minute), and its clock (tests move it). */
      tickMs?: number;
      now?: () => number;
      /** How long a minute of the silence setting lasts (silence.ts; host mode's tests shorten it). */
      silenceMinuteMs?: number;
    } = {},
  ) {
    this.tickMs = opts.tickMs ?? Math.min(5000, Math.max(100, (opts.silenceMinuteMs ?? 60_000) / 12));
    this.silence = new SilenceWatch({
      now: opts.now ?? (() => Date.now()),
      minutes: opts.silenceMinutes ?? (() => undefined),
      minuteMs: opts.silenceMinuteMs,
      ask: (s) => events.stillRecording?.(s),
      stop: (run) => captions.stop?.(run) ?? Promise.resolve(),
      log,
    });
    this.summary = new LiveSummary({
      model: () => models.summariser(),
      template: () => this.summaryTemplate(opts.summarySetting?.()),
      update: (s) => {
        if (s.status !== 'streaming') this.save(s);
        this.events.missed(s);
      },
      windowMs: opts.windowMs,
      log,
    });
    this.queue = new TranslationQueue({
      translator: () => models.translator(),
      translated: (t) => {
        this.translations.set(t.key, t.text);
        events.translation(t);
      },
      status: (s) => events.translationStatus(s),
      save: (recordingId, turn, language, text) => library.liveExtras.saveTranslation(recordingId, turn, language, text),
      log,
    });
    captions.setObserver(this);
  }

  /** The setting "summary at Stop": 'off', a template's id, or a plain summary (absent, 'plain', or a template no longer there). */
  private summaryTemplate(setting: string | undefined): Template | null | 'off' {
    if (setting === 'off') return 'off';
    if (!setting || setting === 'plain') return null;
    try {
      return this.library.templates.get(setting);
    } catch {
      return null;
    }
  }

  /** The most final turns that waited for translation at once (bench). */
  get translationMaxDepth(): number {
    return this.queue.maxDepth;
  }

  started(run: CaptionsRun): void {
    this.translations = new Map();
    this.summary.started(run);
    this.silence.started(run.run);
    if (this.silenceTimer) clearInterval(this.silenceTimer);
    this.silenceTimer = setInterval(() => this.silence.tick(), this.tickMs);
    this.silenceTimer.unref();
    if (this.language) void this.queue.start(run.run, run.recordingId, this.language);
  }

  turn(t: LiveTurn): void {
    if (t.final) this.queue.push(t);
    this.summary.turn(t);
    if (t.text.trim()) this.silence.speech(t.run);
  }

  /** "Keep recording": the silence counts from now. */
  keepRecording(run: number): { kept: boolean } {
    return { kept: this.silence.keep(run) };
  }

  ended(run: CaptionsRun): void {
    this.queue.stop();
    this.missedRun?.abort.abort();
    this.silence.ended();
    if (this.silenceTimer) clearInterval(this.silenceTimer);
    this.silenceTimer = null;
    const endMs = Math.max(0, Date.now() - Date.parse(run.startedAt));
    this.lastSummary = this.summary.ended(endMs).catch(() => null);
  }

  current(): { translations: Record<string, string>; translation: TranslationStatus | null } {
    return { translations: Object.fromEntries(this.translations), translation: this.queue.status() };
  }

  /** Translation on (a language) or off (null), now and for later runs. */
  async translate(language: string | null): Promise<TranslationStatus> {
    this.language = language;
    const run = this.captions.current().run;
    if (!language || !run) {
      this.queue.stop();
      const s = this.queue.status();
      return { ...s, language, run: run?.run ?? null };
    }
    return this.queue.start(run.run, run.recordingId, language);
  }

  /** Starts a summary of the run's last minutes (or since a moment); answers it as it begins, then events carry it. */
  async missed(raw: unknown): Promise<MissedSummary> {
    const input = missedInputSchema.parse(raw);
    const { run, turns } = this.captions.current();
    if (!run) throw new AppError('conflict', 'Live captions are not running: start them, then ask what you missed.');
    if (this.missedRun) throw new AppError('conflict', 'A summary is being written. Wait for it or press Stop.');
    const toMs = Math.max(0, Date.now() - Date.parse(run.startedAt));
    const fromMs = input.minutes !== undefined ? Math.max(0, toMs - input.minutes * 60_000) : Math.min(input.sinceMs ?? 0, toMs);
    const abort = new AbortController();
    let first: ((s: MissedSummary) => void) | null = null;
    const begun = new Promise<MissedSummary>((r) => (first = r));
    const update = (s: MissedSummary) => {
      if (first) {
        first(s);
        first = null;
      }
      if (s.status !== 'streaming') this.save(s);
      this.events.missed(s);
    };
    const done = (async () => {
      let model: MissedModel | { unavailable: string };
      try {
        model = await this.models.summariser();
      } catch (e) {
        model = { unavailable: `The summary could not start: ${e instanceof Error ? e.message : String(e)}` };
      }
      return writeMissed({ recordingId: run.recordingId, fromMs, toMs, turns, minutes: input.minutes }, model, update, abort.signal);
    })();
    const entry = { abort, done };
    this.missedRun = entry;
    void done.finally(() => {
      if (this.missedRun === entry) this.missedRun = null;
    });
    return begun;
  }

  stopMissed(): { stopped: boolean } {
    if (!this.missedRun) return { stopped: false };
    this.missedRun.abort.abort();
    return { stopped: true };
  }

  summaries(recordingId: string): MissedSummary[] {
    return this.library.liveExtras.summaries(recordingId);
  }

  /** The translated lines kept with a saved session (its transcript view can show them). */
  savedTranslations(recordingId: string): SavedTranslation[] {
    return this.library.liveExtras.translations(recordingId);
  }

  private save(s: MissedSummary): void {
    try {
      this.library.liveExtras.saveSummary(s);
    } catch {
      // The session may have been deleted meanwhile: the summary was shown, there is nothing to keep it with.
    }
  }

  dispose(): void {
    this.queue.stop();
    this.missedRun?.abort.abort();
    this.summary.dispose();
    if (this.silenceTimer) clearInterval(this.silenceTimer);
  }
}
