/**
 * A session's notices that follow its audio clock (the clock of word times, ms of session audio):
 * `Silence` about once a second of audio while no speech is being transcribed (acknowledge_silence, also
 * switched by UpdateConfiguration), each from where the last one ended (or where the voice fell silent) to
 * now; `Heartbeat` once a second of audio (session_heartbeat), in the SDK's HeartbeatEvent shape.
 */
import type { HeartbeatMessage, SilenceMessage } from '../../shared/api/streaming';

const EVERY_MS = 1000;

export class SessionNotices {
  /** Where the silence not yet reported began (ms), or null while a turn is being transcribed. */
  private quietFrom: number | null = 0;
  private beatAt = EVERY_MS;
  private spokeSinceBeat = false;
  /** Audio time of the next mid-stream SpeakerRevision (ms), once the first interval is known. */
  private revisionAt: number | null = null;

  constructor(
    private readonly send: (msg: SilenceMessage | HeartbeatMessage) => void,
    private readonly startedAt: number,
  ) {}

  /**
   * The session's audio reached `nowMs`; `speaking`: a turn is being transcribed. Answers whether a mid-stream
   * SpeakerRevision is due (every `speakerRevisionMs` of audio; 0: none).
   */
  audio(nowMs: number, speaking: boolean, p: { acknowledgeSilence: boolean; sessionHeartbeat: boolean; speakerRevisionMs: number }): boolean {
    const opts = { silence: p.acknowledgeSilence, heartbeat: p.sessionHeartbeat };
    if (speaking) {
      this.quietFrom = null;
      this.spokeSinceBeat = true;
    } else {
      this.quietFrom ??= nowMs;
      if (nowMs - this.quietFrom >= EVERY_MS) {
        if (opts.silence) this.send({ type: 'Silence', start_ms: Math.round(this.quietFrom), end_ms: Math.round(nowMs) });
        this.quietFrom = nowMs;
      }
    }
    if (nowMs >= this.beatAt) {
      this.beatAt = nowMs + EVERY_MS;
      if (opts.heartbeat) {
        const duration = Math.max(1, Date.now() - this.startedAt);
        this.send({
          type: 'Heartbeat',
          total_audio_received_ms: Math.round(nowMs),
          total_duration_ms: duration,
          realtime_factor: Math.round((nowMs / duration) * 1000) / 1000,
          max_speech_probability: this.spokeSinceBeat || speaking ? 1 : 0,
        });
      }
      this.spokeSinceBeat = false;
    }
    if (p.speakerRevisionMs <= 0) return false;
    this.revisionAt ??= p.speakerRevisionMs;
    if (nowMs < this.revisionAt) return false;
    this.revisionAt = nowMs + p.speakerRevisionMs;
    return true;
  }

  /** The turn ended; its voice fell silent at `atMs`, where the next silence begins. */
  speechEnded(atMs: number): void {
    this.quietFrom = atMs;
  }
}
