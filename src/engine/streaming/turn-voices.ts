/**
 * Live speaker labels (`speaker_labels=true` on /v3/ws): keeps the audio of the turn in progress, and when
 * the turn ends, takes its voiceprint and places it by online clustering (bounded by `max_speakers`) among
 * the session's voices: "A" for the first voice heard, "B" for the next. A turn with under a second of
 * speech is "UNKNOWN", as the published spec says, since so little audio gives no reliable voiceprint.
 */
import { OnlineSpeakers, speakerLetter } from '../../shared/voices/cluster';

const RATE = 16000;
/** Turns with less speech than this are labelled UNKNOWN (the spec's "approximately 1 second"). */
export const MIN_LABEL_MS = 1000;
/** At most this much of the latest audio is kept; a voiceprint needs far less. */
const KEEP_SAMPLES = 30 * RATE;
export const UNKNOWN_SPEAKER = 'UNKNOWN';

/** Takes the voiceprint of some 16 kHz PCM16 of one voice. */
export type Embed = (parts: Int16Array[]) => Promise<Float32Array>;

export class TurnVoices {
  private chunks: { at: number; pcm: Int16Array }[] = [];
  private kept = 0;
  private readonly speakers: OnlineSpeakers;
  /** Labels are placed in turn order, one after another, so the clustering sees turns as they came. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly embed: Embed,
    maxSpeakers: number | null,
  ) {
    this.speakers = new OnlineSpeakers(maxSpeakers);
  }

  /** Audio of the stream from sample `at` on (what the decoder hears). */
  hear(pcm: Int16Array, at: number): void {
    if (pcm.length === 0) return;
    this.chunks.push({ at, pcm: pcm.slice() });
    this.kept += pcm.length;
    while (this.chunks.length > 1 && this.kept - (this.chunks[0] as { pcm: Int16Array }).pcm.length >= KEEP_SAMPLES) {
      this.kept -= (this.chunks.shift() as { pcm: Int16Array }).pcm.length;
    }
  }

  /** The audio between two stream samples that is still kept, in pieces. */
  private span(from: number, to: number): Int16Array[] {
    const parts: Int16Array[] = [];
    for (const c of this.chunks) {
      const a = Math.max(from, c.at);
      const b = Math.min(to, c.at + c.pcm.length);
      if (b > a) parts.push(c.pcm.subarray(a - c.at, b - c.at));
    }
    return parts;
  }

  /**
   * The label of the turn whose speech ran from sample `from` to `to`; the audio before `to` is let go.
   * A failed voiceprint labels the turn UNKNOWN rather than ending the session.
   */
  label(from: number, to: number): Promise<string> {
    const parts = this.span(from, to);
    this.chunks = this.chunks.filter((c) => c.at + c.pcm.length > to);
    this.kept = this.chunks.reduce((n, c) => n + c.pcm.length, 0);
    const samples = parts.reduce((n, p) => n + p.length, 0);
    if ((samples / RATE) * 1000 < MIN_LABEL_MS) return Promise.resolve(UNKNOWN_SPEAKER);
    // Started now (beside the turn's last decode); placed once the turns before it are.
    const print = this.embed(parts);
    print.catch(() => undefined);
    const label = this.queue
      .then(() => print)
      .then(
        (e) => speakerLetter(this.speakers.assign(e).speaker),
        () => UNKNOWN_SPEAKER,
      );
    this.queue = label;
    return label;
  }
}
