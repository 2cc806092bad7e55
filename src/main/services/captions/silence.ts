/**
 * Sessions that end themselves: when no one has spoken on any source for the
 * minutes set in Settings (default 15; 0: never), the session asks "Still
 * recording?" (an event with the moment it will stop, a minute later). Speech
 * or "Keep recording" clears it. The window that captures stops the session
 * itself at that moment, so its last audio is kept; should none do it (no
 * window left), main stops it a minute after that, keeping what it has.
 */

export const DEFAULT_SILENCE_MINUTES = 15;
/** From the question to the stop. */
export const ASK_MS = 60_000;
/** After the stop moment, how long main waits for the capturing window to stop the session before it does. */
export const FALLBACK_MS = 60_000;

export interface StillRecording {
  run: number;
  /** When the session stops unless someone speaks or keeps it (ISO); null: the question is withdrawn. */
  stopAt: string | null;
  silentMinutes: number;
}

export interface SilenceDeps {
  now(): number;
  /** Minutes of silence before the question (undefined: the default; 0: never). */
  minutes(): number | undefined;
  ask(s: StillRecording): void;
  stop(run: number): Promise<unknown>;
  log?(message: string): void;
  /** How long one minute of the setting (and of the question) lasts: 60,000 ms; host mode's tests shorten it (VERBATIM_TEST_SILENCE_MINUTE_MS). */
  minuteMs?: number;
}

export class SilenceWatch {
  private run: number | null = null;
  private lastSpeech = 0;
  private stopAt: number | null = null;
  private stopping = false;

  constructor(private readonly deps: SilenceDeps) {}

  started(run: number): void {
    this.run = run;
    this.lastSpeech = this.deps.now();
    this.stopAt = null;
    this.stopping = false;
  }

  /** Anyone spoke (a turn grew or ended). */
  speech(run: number): void {
    if (run !== this.run) return;
    this.lastSpeech = this.deps.now();
    this.withdraw();
  }

  /** "Keep recording": the silence counts from now. */
  keep(run: number): boolean {
    if (run !== this.run) return false;
    this.lastSpeech = this.deps.now();
    this.withdraw();
    return true;
  }

  ended(): void {
    this.run = null;
    this.stopAt = null;
  }

  /** Called every few seconds while a session runs. */
  tick(): void {
    const run = this.run;
    if (run === null || this.stopping) return;
    const minutes = this.deps.minutes() ?? DEFAULT_SILENCE_MINUTES;
    if (minutes <= 0) return this.withdraw();
    const now = this.deps.now();
    const scale = (this.deps.minuteMs ?? 60_000) / 60_000;
    if (this.stopAt === null) {
      if (now - this.lastSpeech < minutes * 60_000 * scale) return;
      this.stopAt = now + ASK_MS * scale;
      this.deps.ask({ run, stopAt: new Date(this.stopAt).toISOString(), silentMinutes: minutes });
      return;
    }
    if (now < this.stopAt + FALLBACK_MS * scale) return;
    this.stopping = true;
    this.deps.log?.(`captions: no speech for ${minutes} minutes and no answer to "Still recording?": the session stops, keeping what it has`);
    void this.deps.stop(run).catch((e: unknown) => this.deps.log?.(`captions: the silent session did not stop: ${String(e)}`));
  }

  private withdraw(): void {
    if (this.stopAt === null || this.run === null) return;
    this.stopAt = null;
    this.deps.ask({ run: this.run, stopAt: null, silentMinutes: 0 });
  }
}
