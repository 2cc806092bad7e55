/**
 * Where speech really stopped, for end-of-turn timing. Silero VAD declares the
 * end of speech 100–170 ms after the voice's energy has fallen (its network's
 * context plus the detector's 100 ms hangover); counting min_turn_silence
 * from there made every final turn that much later than the silence the
 * client asked for. This keeps the energy of the last second in 10 ms frames
 * and counts silence from the last frame still well above both the room's
 * noise and the turn's quiet end (looking back at most 250 ms before the
 * detector's end). In noise louder than that margin every frame is loud and
 * the detector's end stands, as before.
 */
const FRAME = 160; // 10 ms at 16 kHz
const KEEP = 100; // frames of history: 1 s
const MAX_BACK = 25; // frames: 250 ms
/** A frame is still speech when its energy is within 30 dB of the turn's loudest… */
const BELOW_PEAK = 10 ** (-30 / 10);
/** …and 9 dB above the quietest frame of the last second (the room). */
const ABOVE_FLOOR = 10 ** (9 / 10);

export class SpeechEnd {
  /** Mean square of each whole frame, a ring indexed by frame number. */
  private readonly energy = new Float64Array(KEEP);
  private frames = 0;
  private acc = 0;
  private accN = 0;
  private peak = 0;

  /** Feeds the stream's audio (every sample, speech or not). */
  accept(pcm: Int16Array): void {
    for (let i = 0; i < pcm.length; i++) {
      const s = pcm[i] as number;
      this.acc += s * s;
      if (++this.accN === FRAME) {
        const e = this.acc / FRAME;
        this.energy[this.frames % KEEP] = e;
        if (e > this.peak) this.peak = e;
        this.frames++;
        this.acc = 0;
        this.accN = 0;
      }
    }
  }

  /** A new turn: its loudness is measured afresh. */
  startTurn(): void {
    this.peak = 0;
    const from = Math.max(0, this.frames - 30);
    for (let f = from; f < this.frames; f++) this.peak = Math.max(this.peak, this.energy[f % KEEP] as number);
  }

  /**
   * The sample where the last sound ended, given the detector's end of
   * speech: the end of the newest loud frame from 250 ms before that end up to
   * now. A loud frame after the detector's end is speech resuming that the
   * detector has not confirmed yet (its onset lags by two windows), so a
   * pause inside a sentence is not counted longer than it is.
   */
  refine(detectedEnd: number): number {
    const newest = this.frames - 1;
    const oldest = Math.max(0, this.frames - KEEP, Math.floor(detectedEnd / FRAME) - MAX_BACK);
    if (newest < oldest || this.peak === 0) return detectedEnd;
    let floor = Infinity;
    for (let f = Math.max(0, this.frames - KEEP); f < this.frames; f++) floor = Math.min(floor, this.energy[f % KEEP] as number);
    // Speech no louder than the margin over the room: the energy cannot tell, the detector's end stands.
    if (this.peak < floor * ABOVE_FLOOR) return detectedEnd;
    const threshold = Math.max(this.peak * BELOW_PEAK, floor * ABOVE_FLOOR);
    for (let f = newest; f >= oldest; f--) {
      if ((this.energy[f % KEEP] as number) >= threshold) return (f + 1) * FRAME;
    }
    // Quiet all the way back. The history holds one second: when the detector's end is older than that, the
    // voice fell silent near it, not where the history begins (which would cap every silence at 1 s, and a
    // turn whose words were not decoded yet could then never reach max_turn_silence).
    return Math.min(oldest * FRAME, detectedEnd);
  }
}
