/**
 * Stop sequences enforced by the gateway, whole and streamed: an answer ends
 * before the first stop sequence it contains, whichever provider wrote it (a
 * provider that honours `stop` itself never writes one, so this is then a
 * no-op).
 */

/** The text before the first stop sequence, and whether one was found. */
export function cutAtStop(text: string, stops: readonly string[]): { text: string; stopped: boolean } {
  let at = -1;
  for (const s of stops) {
    const i = s ? text.indexOf(s) : -1;
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at < 0 ? { text, stopped: false } : { text: text.slice(0, at), stopped: true };
}

/**
 * The same over a stream of text pieces: what may be sent now, holding back
 * a tail that could still grow into a stop sequence.
 */
export class StopCutter {
  private held = '';
  private readonly keep: number;
  stopped = false;

  constructor(private readonly stops: readonly string[]) {
    this.keep = Math.max(0, ...stops.map((s) => s.length - 1));
  }

  /** Takes the next piece; returns the text that is safe to send (empty once stopped). */
  push(piece: string): string {
    if (this.stopped) return '';
    if (!this.stops.length) return piece;
    const all = this.held + piece;
    const cut = cutAtStop(all, this.stops);
    if (cut.stopped) {
      this.stopped = true;
      this.held = '';
      return cut.text;
    }
    const safe = Math.max(0, all.length - this.keep);
    this.held = all.slice(safe);
    return all.slice(0, safe);
  }

  /** What is still held back at the end of the stream (no stop sequence came). */
  flush(): string {
    const rest = this.stopped ? '' : this.held;
    this.held = '';
    return rest;
  }
}
