/**
 * One Streaming v3 session (API.md §8.2): audio in, Turn messages out.
 * Speech vs silence comes from Silero VAD (audio/vad.ts); only speech (with a
 * short pre-roll) reaches the session's own PocketSphinx decoder, whose calls
 * run on worker threads and are chained per session, so one slow session
 * never blocks the event loop or another session.
 */
import { randomUUID } from 'node:crypto';
import type { RecognizedWord, RecognizerStream } from '../recognizer/types';
import type { StreamingVad } from '../audio/vad';
import { acquireVad, prewarmSessionVads, releaseVad } from './session-vads';
import type { StreamingServerMessage } from '../../shared/api/streaming';
import { applyTunables, CLOSE, StreamingClose, type StreamingParams } from './params';
import { AudioPacer, parseControl } from './input';
import { Resampler } from './resample';
import { inSlice } from './slices';
import { SpeechEnd } from './speech-end';
import { endOfTurnConfidence, formatWords, joinWords, PartialTracker, type StreamWord } from './turns';
import type { TurnVoices, VoiceRecord } from './turn-voices';
import { SessionNotices } from './notices';
import { reviseSpeakers } from './revisions';

const RATE = 16000;
const SPM = RATE / 1000;
/** Audio kept before detected onset, so the first phone is not clipped. */
const PREROLL_MS = 300;
/** New audio between two partial hypotheses. */
const PARTIAL_EVERY_MS = 100;
/**
 * Until a turn has its first word, a hypothesis on every frame: the first one
 * as soon as speech is confirmed, since the pre-roll already holds its start.
 */
const FIRST_WORD_EVERY_MS = 50;

export { prewarmSessionVads };

export interface SessionOptions {
  /** Audio ahead of real time tolerated before closing 3007 (ms). */
  burstMs: number;
  /** Hard limit of the session (ms). */
  maxSessionMs: number;
  /** Use Silero VAD (default); false forces the decoder's own detector. */
  useVad: boolean;
  /** With speaker_labels: labels each finished turn's speaker. */
  voices?: TurnVoices | null;
}

export interface SessionIo {
  send(msg: StreamingServerMessage): void;
  close(code: number, reason: string): void;
}

interface Turn {
  order: number | null;
  /** Stream sample where the decoder's utterance begins (its time zero). */
  uttStart: number;
  /** Onset of speech (ms from stream start). */
  speechStartMs: number;
  tracker: PartialTracker;
  lastWords: StreamWord[];
  /** Stream sample at the last partial request; null before the first. */
  lastPartialAt: number | null;
  emitted: boolean;
}

export class StreamingSession {
  readonly id = randomUUID();
  readonly startedAt = Date.now();
  readonly expiresAt: number;
  /** Acquired with the first audio (building one takes ~50 ms of the loop): a session that sends none holds none. */
  private vad: StreamingVad | null = null;
  private vadAcquired = false;
  private readonly resampler: Resampler;
  private readonly speechEnd = new SpeechEnd();
  private preroll: Int16Array[] = [];
  private prerollSamples = 0;
  /** 16 kHz samples received (stream clock). */
  private samples = 0;
  private readonly pacer: AudioPacer;
  private turn: Turn | null = null;
  private nextOrder = 0;
  private partialBusy = false;
  /** Fallback detector state when the VAD is missing. */
  private decoderSpeech = false;
  private decoderLastSpeech = -1;
  private decoderBusy = false;
  private ending: Promise<void> = Promise.resolve();
  private decoderUttStart = 0;
  private terminating = false;
  private done = false;
  private vadReleased = false;
  private timers: NodeJS.Timeout[] = [];
  private inactivity: NodeJS.Timeout | null = null;
  /** Silence and Heartbeat, on the audio clock. */
  private readonly notices = new SessionNotices((m) => this.io.send(m), this.startedAt);

  constructor(
    private readonly params: StreamingParams,
    private readonly decoder: RecognizerStream,
    private readonly io: SessionIo,
    private readonly opts: SessionOptions,
  ) {
    this.expiresAt = this.startedAt + opts.maxSessionMs;
    this.pacer = new AudioPacer(opts.burstMs);
    this.resampler = new Resampler(params.sampleRate, RATE);
  }

  get vadBackend(): 'silero' | 'decoder' {
    return this.vad || (this.opts.useVad && !this.vadAcquired) ? 'silero' : 'decoder';
  }

  begin(): void {
    this.io.send({ type: 'Begin', id: this.id, expires_at: Math.floor(this.expiresAt / 1000) });
    this.timers.push(
      setTimeout(
        () =>
          this.fail(
            new StreamingClose(CLOSE.expired, `Session expired: the maximum session duration of ${Math.round(this.opts.maxSessionMs / 1000)} s was reached`),
          ),
        this.opts.maxSessionMs,
      ),
    );
    this.touch();
  }

  /**
   * Handles one client message. A frame's size and pace are checked as it
   * arrives (a burst is refused before it costs any work); the work itself
   * runs in order in the sessions' shared slices (slices.ts). Errors become
   * close codes.
   */
  onMessage(data: Buffer, isBinary: boolean): void {
    if (this.done) return;
    try {
      this.touch();
      if (isBinary) {
        const pcm = this.pacer.accept(data, this.params);
        if (!this.vadAcquired) this.later(() => this.acquireVad());
        // A frame of up to 1 s (at 48 kHz ~20 ms of resampling and VAD) goes in 100 ms pieces, a few per slice.
        const step = this.params.sampleRate / 10;
        for (let i = 0; i < pcm.length; i += step) {
          const piece = pcm.subarray(i, i + step);
          this.later(() => this.onAudio(piece));
        }
      } else {
        const text = data.toString('utf8');
        this.later(() => this.onControl(text));
      }
    } catch (err) {
      this.fail(err);
    }
  }

  private later(fn: () => void): void {
    inSlice(() => {
      if (this.done) return;
      try {
        fn();
      } catch (err) {
        this.fail(err);
      }
    });
  }

  private acquireVad(): void {
    if (this.vadAcquired) return;
    this.vadAcquired = true;
    this.vad = this.opts.useVad ? acquireVad() : null;
  }

  /** The socket went away: stop everything. */
  dispose(): void {
    this.done = true;
    for (const t of this.timers) clearTimeout(t);
    if (this.inactivity) clearTimeout(this.inactivity);
    this.decoder.close();
    if (this.vad && !this.vadReleased) {
      this.vadReleased = true;
      releaseVad(this.vad);
    }
  }

  private touch(): void {
    if (this.params.inactivityTimeout === null) return;
    if (this.inactivity) clearTimeout(this.inactivity);
    const secs = this.params.inactivityTimeout;
    this.inactivity = setTimeout(() => void this.terminate(`Session closed after ${secs} s without audio or messages (inactivity_timeout)`), secs * 1000);
  }

  private onControl(text: string): void {
    const { message, json } = parseControl(text);
    switch (message.type) {
      case 'Terminate':
        void this.terminate('');
        return;
      case 'ForceEndpoint':
        this.endTurn();
        return;
      case 'KeepAlive':
        return;
      case 'UpdateConfiguration': {
        const { type: _t, ...rest } = json;
        const next = { ...this.params, keyterms: [...this.params.keyterms] };
        applyTunables(next, rest);
        Object.assign(this.params, next);
        this.touch();
        return;
      }
    }
  }

  private onAudio(pcm: Int16Array): void {
    this.acquireVad();
    this.ingest(this.resampler.process(pcm));
  }

  private ingest(pcm: Int16Array): void {
    if (pcm.length === 0) return;
    const before = this.samples;
    this.samples += pcm.length;
    if (this.vad) {
      this.speechEnd.accept(pcm);
      const events = this.vad.accept(pcm);
      if (!this.turn) {
        this.keepPreroll(pcm);
        const onset = events.find((e) => e.type === 'speech_start');
        if (onset || this.vad.isSpeech) this.startTurn(onset ? onset.sample : before);
      } else {
        this.feed(pcm, before);
      }
    } else {
      // No VAD: the decoder hears everything and its own detector decides.
      this.feed(pcm, before);
      this.pollDecoderSpeech(before);
    }
    if (this.turn) this.checkTurn();
    // Silence, Heartbeat, and a mid-stream SpeakerRevision when one is due (after the turns being labelled).
    if (this.notices.audio(this.samples / SPM, this.turn !== null, this.params) && this.opts.voices)
      this.ending = this.ending.then(() => this.revise()).catch((err: unknown) => this.fail(err));
  }

  /** Re-clusters the turns' voiceprints; sends a SpeakerRevision when a label changed. */
  private async revise(): Promise<void> {
    const revision = this.opts.voices ? await reviseSpeakers(this.opts.voices) : null;
    if (revision && !this.done) this.io.send(revision);
  }

  private keepPreroll(pcm: Int16Array): void {
    this.preroll.push(pcm);
    this.prerollSamples += pcm.length;
    while (this.preroll.length > 1 && this.prerollSamples - (this.preroll[0] as Int16Array).length >= PREROLL_MS * SPM) {
      this.prerollSamples -= (this.preroll.shift() as Int16Array).length;
    }
  }

  private startTurn(onsetSample: number): void {
    const heldFrom = this.samples - this.prerollSamples;
    const from = Math.max(heldFrom, onsetSample - PREROLL_MS * SPM);
    const all = new Int16Array(this.prerollSamples);
    let o = 0;
    for (const c of this.preroll) {
      all.set(c, o);
      o += c.length;
    }
    this.preroll = [];
    this.prerollSamples = 0;
    this.speechEnd.startTurn();
    this.turn = {
      order: null,
      uttStart: from,
      speechStartMs: onsetSample / SPM,
      tracker: new PartialTracker(),
      lastWords: [],
      lastPartialAt: null,
      emitted: false,
    };
    this.feed(all.subarray(from - heldFrom), from);
  }

  /** Gives the decoder (and the speaker labels) `pcm`, which begins at stream sample `at`. */
  private feed(pcm: Int16Array, at: number): void {
    this.opts.voices?.hear(pcm, at);
    if (pcm.length) this.decoder.accept(pcm).catch((err: unknown) => this.fail(err));
  }

  private silenceMs(): number {
    if (this.vad) {
      if (this.vad.isSpeech) return 0;
      // Counted from where the voice's energy fell, not from the detector's later end (see speech-end.ts).
      const ended = this.speechEnd.refine(this.vad.lastSpeechAt);
      return Math.max(0, (this.samples - Math.max(ended, this.turn ? this.turn.speechStartMs * SPM : 0)) / SPM);
    }
    return this.decoderSpeech ? 0 : Math.max(0, (this.samples - this.decoderLastSpeech) / SPM);
  }

  private pollDecoderSpeech(before: number): void {
    if (this.decoderBusy) return;
    this.decoderBusy = true;
    const at = this.samples;
    this.decoder
      .inSpeech()
      .then((speech) => {
        this.decoderBusy = false;
        if (speech) this.decoderLastSpeech = at;
        if (speech && !this.decoderSpeech && !this.turn && !this.done) {
          this.decoderSpeech = true;
          this.turn = {
            order: null,
            uttStart: this.decoderUttStart,
            speechStartMs: before / SPM,
            tracker: new PartialTracker(),
            lastWords: [],
            lastPartialAt: null,
            emitted: false,
          };
        }
        this.decoderSpeech = speech;
      })
      .catch((err: unknown) => this.fail(err));
  }

  private lastWordText(): string | undefined {
    return this.turn?.lastWords[this.turn.lastWords.length - 1]?.text;
  }

  private previousWordText(): string | undefined {
    return this.turn?.lastWords[this.turn.lastWords.length - 2]?.text;
  }

  /** How sure the session is that the turn in progress is over, after `silence` ms. */
  private turnEndConfidence(silence: number): number {
    return endOfTurnConfidence(silence, this.lastWordText(), this.params.minTurnSilence, this.params.maxTurnSilence, this.previousWordText());
  }

  private checkTurn(): void {
    const turn = this.turn;
    if (!turn) return;
    const silence = this.silenceMs();
    const conf = this.turnEndConfidence(silence);
    const heard = turn.lastWords.length > 0;
    if (
      (heard || silence >= this.params.maxTurnSilence) &&
      (silence >= this.params.maxTurnSilence || (silence >= this.params.minTurnSilence && conf >= this.params.endOfTurnConfidenceThreshold))
    ) {
      this.endTurn();
      return;
    }
    const every = turn.lastWords.length ? PARTIAL_EVERY_MS : FIRST_WORD_EVERY_MS;
    // The turn is about to end: a hypothesis now would only hold up the final decode queued behind it.
    const endingSoon =
      heard &&
      silence > 0 &&
      silence + every > this.params.minTurnSilence &&
      this.turnEndConfidence(this.params.minTurnSilence) >= this.params.endOfTurnConfidenceThreshold;
    if (!endingSoon && !this.partialBusy && (turn.lastPartialAt === null || (this.samples - turn.lastPartialAt) / SPM >= every)) {
      turn.lastPartialAt = this.samples;
      this.partialBusy = true;
      const spanEnd = (silence > 0 ? this.samples - silence * SPM : this.samples) / SPM;
      this.decoder
        .partial()
        .then((p) => {
          this.partialBusy = false;
          if (this.done || this.turn !== turn) return;
          const words = turn.tracker.update(p.text, turn.speechStartMs, spanEnd, silence > 0);
          const same =
            words.length === turn.lastWords.length &&
            words.every((w, i) => w.text === turn.lastWords[i]?.text && w.word_is_final === turn.lastWords[i]?.word_is_final);
          turn.lastWords = words;
          if (!same && words.length > 0) {
            this.sendTurn(turn, words, false, false, this.turnEndConfidence(this.silenceMs()));
          }
          // Audio that arrived while this hypothesis was decoding gets the next one now, not a frame later.
          this.checkTurn();
        })
        .catch((err: unknown) => this.fail(err));
    }
  }

  private sendTurn(turn: Turn, words: StreamWord[], endOfTurn: boolean, formatted: boolean, confidence: number, speaker?: string): void {
    if (turn.order === null) turn.order = this.nextOrder++;
    turn.emitted = true;
    const finals = words.filter((w) => w.word_is_final);
    this.io.send({
      type: 'Turn',
      turn_order: turn.order,
      turn_is_formatted: formatted,
      end_of_turn: endOfTurn,
      transcript: joinWords(finals),
      utterance: endOfTurn ? joinWords(words) : '',
      end_of_turn_confidence: confidence,
      words,
      ...(speaker !== undefined ? { speaker_label: speaker } : {}),
    });
  }

  /** Ends the turn in progress (silence, ForceEndpoint or Terminate). */
  private endTurn(): Promise<void> {
    const turn = this.turn;
    if (!turn) return this.ending;
    // The turn's speech, onset to where the voice fell silent: its voiceprint is taken beside the last decode.
    const speechTo = Math.max(turn.speechStartMs * SPM, this.samples - this.silenceMs() * SPM);
    const voice = this.opts.voices?.labelTurn(Math.round(turn.speechStartMs * SPM), Math.round(speechTo));
    const speaker = voice ? voice.label : Promise.resolve(undefined);
    this.notices.speechEnded(speechTo / SPM);
    this.turn = null;
    this.partialBusy = false;
    const confidence = endOfTurnConfidence(
      Math.max(this.silenceMs(), this.params.minTurnSilence),
      this.lastWordText() ?? 'end',
      this.params.minTurnSilence,
      this.params.maxTurnSilence,
      this.previousWordText(),
    );
    const format = this.params.formatTurns;
    const offset = turn.uttStart / SPM;
    const finished = Promise.all([this.decoder.finish(), speaker]).then(([raw, label]: [RecognizedWord[], string | undefined]) => {
      if (this.done && !this.terminating) return;
      const words: StreamWord[] = raw.map((w) => ({
        text: w.text,
        start: Math.round(w.start + offset),
        end: Math.round(w.end + offset),
        confidence: w.confidence,
        word_is_final: true,
      }));
      if (words.length === 0 && !turn.emitted) return;
      this.sendTurn(turn, words, true, false, Math.max(confidence, 0.5), label);
      const shown = format ? formatWords(words) : words;
      if (format) this.sendTurn(turn, shown, true, true, Math.max(confidence, 0.5), label);
      if (voice) Object.assign(voice.record, { order: turn.order, words: shown } satisfies Partial<VoiceRecord>);
    });
    // Without VAD the decoder hears everything: the next utterance starts here.
    if (!this.vad) this.decoderUttStart = this.samples;
    this.ending = this.ending.then(() => finished).catch((err: unknown) => this.fail(err));
    return this.ending;
  }

  /** Flushes the last turn, sends Termination and closes 1000. */
  async terminate(reason: string): Promise<void> {
    if (this.done || this.terminating) return;
    this.terminating = true;
    try {
      const tail = this.resampler.flush();
      if (tail.length) {
        this.samples += tail.length;
        if (this.turn) this.feed(tail, this.samples - tail.length);
      }
      this.vad?.flush();
      await this.endTurn();
      // One SpeakerRevision before Termination, when re-clustering changed a label.
      await this.revise();
      if (this.done) return;
      this.io.send({
        type: 'Termination',
        audio_duration_seconds: Math.round(this.samples / RATE),
        session_duration_seconds: Math.round((Date.now() - this.startedAt) / 1000),
      });
      this.finish(CLOSE.normal, reason);
    } catch (err) {
      this.fail(err);
    }
  }

  private finish(code: number, reason: string): void {
    if (this.done) return;
    this.dispose();
    this.io.close(code, reason);
  }

  private fail(err: unknown): void {
    if (err instanceof StreamingClose) this.finish(err.code, err.message);
    else this.finish(CLOSE.serverError, `Server error in the local engine: ${err instanceof Error ? err.message : String(err)}`);
  }
}
