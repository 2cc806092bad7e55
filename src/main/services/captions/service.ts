/**
 * Live captions in main: one run at a time, one streaming session per source
 * (paced at real time, reconnected with a notice when dropped), the recording
 * written to the library as its chunks arrive, and the turns saved as the
 * session's live transcript when the run stops.
 */
import { statSync } from 'node:fs';
import { recordingBudget } from './recording-cap';
import { decodeFrame, LIVE_FRAME_MS, LIVE_SAMPLE_RATE, type LiveSource } from '../../../shared/audio-frame';
import { AppError } from '../../../shared/errors';
import type { ServiceRegion } from '../../../shared/jobs';
import {
  captionsStartInputSchema,
  endOfTurnThresholds,
  type CaptionsRun,
  type CaptionsStartInput,
  type CaptionsStopped,
  type LiveStatus,
  type LiveTurn,
} from '../../../shared/captions';
import type { StreamingClient, StreamingHandlers, StreamingOptions } from '../client/streaming';
import { BUILTIN_SPEECH_MODEL } from '../../../shared/models/catalog';
import type { Library } from '../library/library';
import { failureSentence, reconnectedNotice, reconnectNotice } from './close-codes';
import type { CaptionsObserver } from './extras';
import { RealTimePacer } from './pacer';
import { mergeTurns, TurnBook } from './turns';

export interface CaptionsEvents {
  turn(t: LiveTurn): void;
  status(s: LiveStatus): void;
  run(payload: { run: CaptionsRun | null; stopped: CaptionsStopped | null }): void;
}

export interface CaptionsDeps {
  library: Library;
  /** Where live audio goes now (region, REST base for the record) and a client for it. */
  target(): Promise<{ region: ServiceRegion; baseUrl: string | null }>;
  streaming(opts: Omit<StreamingOptions, 'baseUrl' | 'key'>, handlers: StreamingHandlers): Promise<StreamingClient>;
  /** Submit a session's recording as a pre-recorded job (Improve accuracy). */
  improve(recordingId: string, title: string): Promise<{ id: string }>;
  /**
   * Tells the local engine the remembered voices (their voiceprints stay on this machine) so a session with
   * speaker labels names them; answers their names. Called only when live audio goes to the local engine.
   */
  rememberedVoices?(): Promise<string[]>;
  /** Has the local engine let the remembered voices go (the session that needed them ended: a forgotten voice lingers nowhere). */
  forgetRememberedVoices?(): Promise<void>;
  events: CaptionsEvents;
  log?: (message: string) => void;
}

/** Capture times of the last minute of frames, to tell how long a word took from the microphone to the screen. */
class CaptureTimes {
  private readonly ring = new Float64Array(1200);
  count = 0;
  add(capturedAt: number): void {
    this.ring[this.count % this.ring.length] = capturedAt;
    this.count++;
  }
  /** Capture time of the frame holding stream time `ms`, or null when it is older than the ring. */
  at(ms: number): number | null {
    if (this.count === 0) return null;
    const n = Math.min(this.count - 1, Math.max(0, Math.floor(ms / LIVE_FRAME_MS)));
    if (this.count - n > this.ring.length) return null;
    return this.ring[n % this.ring.length] ?? null;
  }
}

interface SourceRun {
  source: LiveSource;
  client: StreamingClient | null;
  pacer: RealTimePacer | null;
  times: CaptureTimes;
  state: LiveStatus;
  /** The session's warning, carried on every later state (a reconnect notice must not hide it). */
  warning: { code: string; message: string } | null;
  reconnects: number;
  receivedMs: number;
}

interface Run {
  info: CaptionsRun;
  transcriptId: string;
  sources: Map<LiveSource, SourceRun>;
  book: TurnBook;
  recordOnly: boolean;
  startedAt: number;
  recordedBytes: number;
  /** The recording's container: its bit rate caps what chunks may add (recording-cap.ts). */
  recordingMime: string;
  stopping: boolean;
  /** The local engine holds the remembered voices for this run. */
  toldVoices: boolean;
}

export class CaptionsService {
  private run: Run | null = null;
  private nextRun = 1;
  private badFrames = 0;
  private overlay: ((show?: boolean) => boolean) | null = null;
  /** What runs beside the captions (translation, summaries): told of each run and turn, never waited on. */
  private observer: CaptionsObserver | null = null;

  constructor(private readonly deps: CaptionsDeps) {
    this.closeCrashed();
  }

  /**
   * Sessions a crash left open: the turns shown before it were saved as they
   * ended, so the live transcript is made from them; the recording holds what
   * its chunks brought. Only a session that showed no turn says its captions were lost.
   */
  private closeCrashed(): void {
    const { library } = this.deps;
    for (const id of library.sessions.unfinished()) {
      const s = library.sessions.session(id);
      if (!s) continue;
      const turns = library.sessions.savedTurns(id);
      if (turns.length > 0 || s.recordOnly) {
        this.saveTranscript(id, s.liveTranscriptId, turns, s.sources.length > 1, s.recordOnly ? null : 'live');
      } else {
        library.transcripts.setStatus(s.liveTranscriptId, 'error', {
          error: {
            code: 'internal',
            message: 'Verbatim closed during this live session, so its captions were lost. The recording is kept: use Improve accuracy to transcribe it.',
            retryable: false,
          },
        });
      }
      // How long it ran: to its last turn, or to the recording's last write.
      const audio = library.sessions.audioPath(id);
      const written = audio ? statSync(audio).mtimeMs - Date.parse(s.startedAt) : 0;
      library.sessions.finish(id, { durationMs: Math.max(0, written, ...turns.map((t) => t.endMs)), lostMs: 0, reconnects: 0 });
    }
  }

  /** The live transcript from finished turns, merged by time (labelled You / Others with two sources; remembered voices by name). */
  private saveTranscript(recordingId: string, transcriptId: string, turns: LiveTurn[], labelled: boolean, model: string | null): number {
    const merged = mergeTurns(turns, labelled);
    this.deps.library.transcripts.complete(transcriptId, {
      remoteId: null,
      text: merged.text,
      words: merged.words,
      sentences: merged.sentences,
      paragraphs: null,
      confidence: merged.words.length ? merged.words.reduce((n, w) => n + w.confidence, 0) / merged.words.length : null,
      language: 'en',
      model,
      durationMs: null,
    });
    // A speaker the engine named is named in the transcript too, so it reads "Dana", not "Speaker Dana".
    for (const name of merged.named) this.deps.library.edits.renameSpeaker(recordingId, name, name);
    return merged.sentences.length;
  }

  /** The desktop overlay window (Electron sets it; host mode has none). */
  setOverlayController(fn: ((show?: boolean) => boolean) | null): void {
    this.overlay = fn;
  }

  setObserver(o: CaptionsObserver | null): void {
    this.observer = o;
  }

  toggleOverlay(show?: boolean): { visible: boolean } {
    if (!this.overlay)
      throw new AppError(
        'unavailable',
        'The floating overlay window is part of the desktop app. In a browser, use Pop out captions on the Live captions screen.',
      );
    return { visible: this.overlay(show) };
  }

  current(): { run: CaptionsRun | null; turns: LiveTurn[]; status: LiveStatus[]; translations: Record<string, string> } {
    const r = this.run;
    if (!r) return { run: null, turns: [], status: [], translations: {} };
    return { run: r.info, turns: r.book.all(), status: [...r.sources.values()].map((s) => s.state), translations: this.observer?.current().translations ?? {} };
  }

  async start(raw: CaptionsStartInput): Promise<CaptionsRun> {
    if (this.run) throw new AppError('conflict', 'Live captions are already running (perhaps in another window). Stop that session first.');
    const input = captionsStartInputSchema.parse(raw);
    const sources = [...new Set(input.sources)];
    let recordOnly = input.recordOnly;
    let region: ServiceRegion = 'local';
    let baseUrl: string | null = null;
    let targetError: string | null = null;
    if (!recordOnly) {
      try {
        ({ region, baseUrl } = await this.deps.target());
      } catch (e) {
        const err = e instanceof AppError ? e : new AppError('engine_unavailable', e instanceof Error ? e.message : String(e));
        targetError = failureSentence(err.code, err.message);
        recordOnly = true;
      }
    }
    // Remembered voices go only to the local engine, and only for a session that labels the system audio's speakers.
    const names = !recordOnly && region === 'local' && input.speakerLabels && sources.includes('system') ? await this.rememberedVoices() : new Set<string>();
    if (this.run) throw new AppError('conflict', 'Live captions are already running. Stop that session first.');
    const startedAt = new Date();
    const title = `Live session ${formatTitleDate(startedAt)}`;
    const { recordingId, transcriptId } = this.deps.library.sessions.create({
      title,
      sources,
      recordOnly: input.recordOnly,
      recordingMime: input.recordingMime,
      region,
      baseUrl,
      options: {
        live: true,
        sources,
        endOfTurn: input.endOfTurn,
        formatTurns: input.formatTurns,
        keytermsPrompt: input.keyterms,
        deviceLabels: input.deviceLabels ?? {},
      },
    });
    const info: CaptionsRun = { run: this.nextRun++, recordingId, title, startedAt: startedAt.toISOString() };
    const run: Run = {
      info,
      transcriptId,
      sources: new Map(),
      book: new TurnBook(info.run, input.formatTurns, names),
      recordOnly,
      startedAt: Date.now(),
      recordedBytes: 0,
      recordingMime: input.recordingMime,
      stopping: false,
      toldVoices: names.size > 0,
    };
    this.run = run;
    for (const source of sources) {
      const state: LiveStatus = { run: info.run, source, state: recordOnly ? 'recording' : 'connecting', message: targetError, warning: null };
      run.sources.set(source, { source, client: null, pacer: null, times: new CaptureTimes(), state, warning: null, reconnects: 0, receivedMs: 0 });
      this.deps.events.status(state);
    }
    this.deps.events.run({ run: info, stopped: null });
    if (!recordOnly) this.observer?.started(info);
    if (!recordOnly) await Promise.all(sources.map((s) => this.connect(run, s, input)));
    return info;
  }

  /** The names the local engine was told; none when it could not be (the session labels with letters then). */
  private async rememberedVoices(): Promise<Set<string>> {
    try {
      return new Set(this.deps.rememberedVoices ? await this.deps.rememberedVoices() : []);
    } catch (e) {
      this.deps.log?.(`captions: remembered voices were not told to the local engine: ${e instanceof Error ? e.message : String(e)}`);
      return new Set();
    }
  }

  private saveTurn(run: Run, turn: LiveTurn): void {
    try {
      this.deps.library.sessions.saveTurn(run.info.recordingId, turn);
    } catch (e) {
      // The session goes on: the turn is still kept in memory and saved with the rest at stop.
      this.deps.log?.(`captions: a turn was not saved as it ended: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private setState(run: Run, sr: SourceRun, state: LiveStatus['state'], message: string | null): void {
    sr.state = { run: run.info.run, source: sr.source, state, message, warning: sr.warning };
    if (this.run === run) this.deps.events.status(sr.state);
  }

  private async connect(run: Run, source: LiveSource, input: ReturnType<typeof captionsStartInputSchema.parse>): Promise<void> {
    const sr = run.sources.get(source)!;
    const eot = endOfTurnThresholds[input.endOfTurn];
    let client: StreamingClient | null = null;
    try {
      client = await this.deps.streaming(
        {
          sampleRate: LIVE_SAMPLE_RATE,
          formatTurns: input.formatTurns,
          keytermsPrompt: input.keyterms.length ? input.keyterms : undefined,
          // The cloud's model (the client sends the service's default when none is chosen); the local engine runs its own.
          speechModel: input.speechModel,
          // Only the system audio's speakers are told apart: the microphone is the user.
          speakerLabels: input.speakerLabels && source === 'system' ? true : undefined,
        },
        {
          begin: () => {
            // The thresholds travel as UpdateConfiguration: the client's URL carries only the basics.
            client?.updateConfiguration({
              end_of_turn_confidence_threshold: eot.confidence,
              min_turn_silence: eot.minSilenceMs,
              max_turn_silence: eot.maxSilenceMs,
            });
          },
          turn: (t) => {
            if (this.run !== run) return;
            const last = t.words.at(-1);
            const capturedAt = last ? sr.times.at(last.end) : null;
            const lt = run.book.apply(source, t, Date.now(), capturedAt);
            if (!lt) return;
            // Saved before it is shown: whatever a crash cuts off, a turn the user saw is in the library.
            if (lt.final) this.saveTurn(run, lt);
            this.deps.events.turn(lt);
            this.observer?.turn(lt);
          },
          speakerRevision: ({ session, revisions }) => {
            // Before Termination too: stop() waits for it, so the saved session has the revised speakers.
            if (this.run !== run) return;
            for (const lt of run.book.revise(source, session, revisions)) {
              if (lt.final) this.saveTurn(run, lt);
              this.deps.events.turn(lt);
            }
          },
          warning: ({ code, message }) => {
            this.deps.log?.(`captions: ${source} warning ${code}: ${message}`);
            sr.warning = { code, message };
            this.setState(run, sr, sr.state.state, sr.state.message);
          },
          reconnecting: ({ attempt, reason }) => {
            if (attempt === 1) sr.reconnects++;
            this.deps.log?.(`captions: ${source} session closed (${reason}); reconnect attempt ${attempt}`);
            this.setState(run, sr, 'reconnecting', reconnectNotice(reason, attempt));
          },
          reconnected: ({ gapMs }) => {
            sr.pacer?.reset();
            this.setState(run, sr, 'live', reconnectedNotice(gapMs));
          },
          error: (err) => this.setState(run, sr, 'failed', failureSentence(err.code, err.message)),
          closed: () => {
            if (!run.stopping && sr.state.state !== 'failed')
              this.setState(run, sr, 'failed', failureSentence('network', 'the transcription service closed the session.'));
          },
        },
      );
      await client.start();
    } catch (e) {
      const err = e instanceof AppError ? e : new AppError('network', e instanceof Error ? e.message : String(e));
      this.deps.log?.(`captions: ${source} could not connect: ${err.code} ${err.message}`);
      this.setState(run, sr, 'failed', failureSentence(err.code, err.message));
      return;
    }
    if (run.stopping || this.run !== run) {
      void client.terminate();
      return;
    }
    sr.client = client;
    sr.pacer = new RealTimePacer((bytes) => client.sendAudio(bytes));
    this.setState(run, sr, 'live', null);
  }

  /** A binary message from the renderer. Never throws: a bad frame is dropped and counted. */
  frame(bytes: Uint8Array): void {
    try {
      const f = decodeFrame(bytes);
      if (typeof f === 'string') return this.drop(f);
      const run = this.run;
      if (!run || run.info.run !== f.run) return; // a frame of a run that ended: nothing to do
      if (f.kind === 'recording') {
        if (run.recordedBytes + f.payload.byteLength > recordingBudget(run.recordingMime, Date.now() - run.startedAt))
          return this.drop(`a recording chunk beyond what ${run.recordingMime} can hold for the time recorded (${run.recordedBytes} bytes so far)`);
        this.deps.library.sessions.appendAudio(run.info.recordingId, f.payload);
        run.recordedBytes += f.payload.byteLength;
        return;
      }
      const sr = run.sources.get(f.source);
      if (!sr) return this.drop(`audio for ${f.source}, which this run does not capture`);
      const ms = (f.payload.byteLength / 2 / LIVE_SAMPLE_RATE) * 1000;
      sr.receivedMs += ms;
      // One capture time per 50 ms of audio, whatever the frame size.
      for (let k = 0; k < Math.max(1, Math.round(ms / LIVE_FRAME_MS)); k++) sr.times.add(f.capturedAt);
      sr.pacer?.push(Buffer.from(f.payload), ms);
    } catch (e) {
      this.drop(e instanceof Error ? e.message : String(e));
    }
  }

  private drop(why: string): void {
    if (this.badFrames++ < 5) this.deps.log?.(`captions: dropped an audio frame: ${why}`);
  }

  async stop(runId: number): Promise<CaptionsStopped> {
    const run = this.run;
    if (!run || run.info.run !== runId) throw new AppError('not_found', 'That live session has already stopped.');
    run.stopping = true;
    await Promise.all(
      [...run.sources.values()].map(async (sr) => {
        sr.pacer?.flush();
        await sr.client?.terminate().catch(() => undefined);
        this.setState(run, sr, 'stopped', null);
      }),
    );
    this.run = null;
    this.observer?.ended(run.info);
    if (run.toldVoices)
      void this.deps
        .forgetRememberedVoices?.()
        .catch((e: unknown) => this.deps.log?.(`captions: the local engine still holds the remembered voices until its next session: ${String(e)}`));
    const durationMs = Math.max(Date.now() - run.startedAt, ...[...run.sources.values()].map((s) => s.receivedMs));
    const lostMs = Math.max(0, ...[...run.sources.values()].map((s) => s.client?.lostMs ?? 0));
    const { library } = this.deps;
    // The model that made the captions, so the saved session's details, review and underlines agree on its word confidences.
    const client = [...run.sources.values()].find((s) => s.client)?.client;
    const model = run.recordOnly ? null : client ? (client.model ?? BUILTIN_SPEECH_MODEL) : 'live';
    const sentences = this.saveTranscript(run.info.recordingId, run.transcriptId, run.book.settle(), run.sources.size > 1, model);
    library.sessions.finish(run.info.recordingId, { durationMs, lostMs, reconnects: Math.max(0, ...[...run.sources.values()].map((s) => s.reconnects)) });
    if (run.recordedBytes > 0)
      void library.subtitles
        .precomputePeaks(run.info.recordingId)
        .catch((e: unknown) => this.deps.log?.(`captions: waveform peaks not made ahead (the Subtitles view makes them when opened): ${String(e)}`));
    const stopped: CaptionsStopped = {
      run: run.info.run,
      recordingId: run.info.recordingId,
      turns: sentences,
      durationMs: Math.round(durationMs),
      hasAudio: run.recordedBytes > 0,
      lostMs: Math.round(lostMs),
    };
    this.deps.events.run({ run: null, stopped });
    return stopped;
  }

  async improve(recordingId: string): Promise<{ jobId: string }> {
    const item = this.deps.library.recordings.item(recordingId);
    if (!this.deps.library.sessions.session(recordingId))
      throw new AppError('bad_request', 'Improve accuracy is for live sessions; this item was transcribed from a file already.');
    if (this.run?.info.recordingId === recordingId) throw new AppError('conflict', 'This session is still running. Stop it first.');
    const job = await this.deps.improve(recordingId, item.title);
    return { jobId: job.id };
  }

  /** Stop a running session (the app is closing): what was captioned is saved. */
  async dispose(): Promise<void> {
    if (this.run) await this.stop(this.run.info.run).catch(() => undefined);
  }
}

function formatTitleDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
