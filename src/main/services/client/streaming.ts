/**
 * The Streaming v3 client (API.md §8) used by live captions: connects with the
 * key in the header (or a temporary token), cuts audio into 50 ms frames,
 * surfaces Turn events with times continuous across sessions, Warnings and
 * SpeakerRevisions (earlier turns relabelled), reconnects a
 * dropped socket with a new session (audio during the gap is dropped and
 * reported, nothing else is lost), and terminates cleanly.
 */
import WebSocket from 'ws';
import { StreamingServerMessageLooseSchema, WARNING_SLOWER_THAN_REAL_TIME, type StreamingClientMessage, type TurnMessage } from '../../../shared/api/streaming';
import { AppError } from '../../../shared/errors';
import { sleep } from './http';

export type { StreamingWord } from '../../../shared/api/streaming';

/** A Turn as the app uses it: the wire message (read leniently, gaps filled) and which session of this stream it came from. */
export type Turn = Omit<TurnMessage, 'type'> & {
  /** Which session of this stream (0, then 1 after a reconnect, …). */
  session: number;
};

export interface StreamingOptions {
  /** ws(s)://host base, e.g. wss://streaming.assemblyai.com or ws://127.0.0.1:PORT. */
  baseUrl: string;
  key?: string;
  /** A temporary token (GET /v3/token) instead of the key. */
  token?: () => Promise<string>;
  sampleRate?: number;
  speechModel?: string;
  formatTurns?: boolean;
  keytermsPrompt?: string[];
  /** Ask the service to label each finished turn's speaker (`speaker_label` on Turn); the cloud and the local engine both take it. */
  speakerLabels?: boolean;
  /** With speakerLabels: the most speakers to tell apart (1–10). */
  maxSpeakers?: number;
  /** Reconnect attempts after a dropped socket (default 5). */
  maxReconnects?: number;
}

/** One earlier turn of a session whose speaker the service changed on re-clustering (the SDK's SpeakerRevisionItem). */
export interface SpeakerRevision {
  turn_order: number;
  /** The new label ("A", "B", …); from the words' `speaker` when the item names none. */
  speaker_label: string;
}

export interface StreamingHandlers {
  begin?(info: { id: string; expiresAt: number; session: number }): void;
  turn?(turn: Turn): void;
  /** Earlier turns of `session` relabelled (only the turns whose label changed). */
  speakerRevision?(info: { session: number; revisions: SpeakerRevision[] }): void;
  /** A notice that does not end the session (e.g. `slower_than_real_time` from the local engine); the text is the server's, cut to 500 characters. */
  warning?(info: { code: string; message: string; session: number }): void;
  reconnecting?(info: { attempt: number; reason: string }): void;
  reconnected?(info: { session: number; gapMs: number }): void;
  error?(err: AppError): void;
  closed?(info: { audioSeconds: number }): void;
}

const FRAME_MS = 50;

export class StreamingClient {
  private ws: WebSocket | null = null;
  private pending: Buffer = Buffer.alloc(0);
  private session = -1;
  /** Audio ms sent in earlier sessions (+ gaps): added to word times so they stay continuous. */
  private offsetMs = 0;
  private sentMs = 0;
  private droppedMs = 0;
  private terminating = false;
  private done = false;
  private termination: (() => void) | null = null;
  private readonly frameBytes: number;

  constructor(
    private readonly opts: StreamingOptions,
    private readonly on: StreamingHandlers = {},
  ) {
    this.frameBytes = ((opts.sampleRate ?? 16000) * 2 * FRAME_MS) / 1000;
  }

  /** The model this session asked for (speech_model); null when it named none (the local engine then runs PocketSphinx). */
  get model(): string | null {
    return this.opts.speechModel ?? null;
  }

  private url(token?: string): string {
    const q = new URLSearchParams({
      sample_rate: String(this.opts.sampleRate ?? 16000),
      encoding: 'pcm_s16le',
      format_turns: String(this.opts.formatTurns ?? true),
    });
    if (this.opts.speechModel) q.set('speech_model', this.opts.speechModel);
    if (this.opts.keytermsPrompt?.length) q.set('keyterms_prompt', JSON.stringify(this.opts.keytermsPrompt));
    if (this.opts.speakerLabels) {
      q.set('speaker_labels', 'true');
      if (this.opts.maxSpeakers) q.set('max_speakers', String(this.opts.maxSpeakers));
    }
    if (token) q.set('token', token);
    return `${this.opts.baseUrl.replace(/\/+$/, '')}/v3/ws?${q}`;
  }

  /** Open the first session; rejects with a typed error if it cannot (after 2 retries). */
  async start(): Promise<void> {
    let last: unknown;
    for (let i = 0; i < 3; i++) {
      try {
        await this.connect();
        return;
      } catch (e) {
        last = e;
        if (e instanceof AppError && e.code === 'invalid_key') throw e;
        await sleep(500);
      }
    }
    throw last instanceof AppError ? last : new AppError('network', 'Could not connect to live transcription. Check your connection and try again.');
  }

  private async connect(): Promise<void> {
    const token = this.opts.token ? await this.opts.token() : undefined;
    const ws = new WebSocket(this.url(token), { headers: token || !this.opts.key ? {} : { authorization: this.opts.key }, handshakeTimeout: 5000 });
    // Listen before 'open' resolves: the server's Begin can arrive in the same read as the
    // upgrade answer, and is then emitted before an awaiting caller would attach a listener.
    const session = this.session + 1;
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      let json: unknown;
      try {
        json = JSON.parse(data.toString());
      } catch {
        return;
      }
      // Read leniently: a newer service's extra fields pass; a message we do not know is skipped.
      const parsed = StreamingServerMessageLooseSchema.safeParse(json);
      if (!parsed.success) return;
      const msg = parsed.data;
      if (msg.type === 'Begin') this.on.begin?.({ id: msg.id, expiresAt: msg.expires_at, session });
      else if (msg.type === 'Turn') {
        const words = (msg.words ?? []).map((w) => ({
          text: w.text,
          start: w.start + this.offsetMs,
          end: w.end + this.offsetMs,
          confidence: w.confidence ?? 0,
          word_is_final: w.word_is_final ?? true,
        }));
        this.on.turn?.({
          turn_order: msg.turn_order,
          turn_is_formatted: msg.turn_is_formatted,
          end_of_turn: msg.end_of_turn,
          transcript: msg.transcript,
          utterance: msg.utterance ?? '',
          end_of_turn_confidence: msg.end_of_turn_confidence ?? 0,
          words,
          session,
          ...(typeof msg.speaker_label === 'string' ? { speaker_label: msg.speaker_label.slice(0, 100) } : {}),
        });
      } else if (msg.type === 'SpeakerRevision') {
        const revisions = msg.revisions.flatMap((r) => {
          const label = (r.speaker_label ?? r.words?.find((w) => typeof w.speaker === 'string')?.speaker ?? '').slice(0, 100);
          return label ? [{ turn_order: r.turn_order, speaker_label: label }] : [];
        });
        if (revisions.length) this.on.speakerRevision?.({ session, revisions });
      } else if (msg.type === 'Warning') {
        const text = (msg.warning ?? msg.message ?? '').trim().slice(0, 500);
        const code = msg.warning_code === WARNING_SLOWER_THAN_REAL_TIME ? 'slower_than_real_time' : String(msg.warning_code ?? 'unknown').slice(0, 60);
        this.on.warning?.({ code, message: text, session });
      } else if (msg.type === 'Termination') this.termination?.();
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => {
        reject(
          res.statusCode === 401 || res.statusCode === 403
            ? new AppError('invalid_key', 'Live transcription refused the API key. Check it in Settings.')
            : new AppError('network', `Live transcription answered ${res.statusCode} on connect.`),
        );
      });
      ws.once('error', (e) => reject(new AppError('network', `Could not connect to live transcription: ${e.message}`)));
    });
    this.ws = ws;
    this.session = session;
    ws.on('close', (code, reason) => void this.onClose(ws, code, reason.toString()));
  }

  private async onClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    if (ws !== this.ws) return;
    this.ws = null;
    if (this.terminating || code === 1000) {
      this.finish();
      return;
    }
    if (code === 1008) return this.fail(new AppError('invalid_key', `Live transcription refused the connection: ${reason || 'unauthorized'}.`));
    if (code === 3006 || code === 3007) return this.fail(new AppError('bad_request', `Live transcription rejected the audio (${code}: ${reason}).`));
    if (code === 3009) return this.fail(new AppError('rate_limited', 'Too many live sessions at once for this key. Close another session and try again.'));
    // 1006 (dropped), 3005 (server error), 3008 (expired): a new session continues the stream.
    const lostAt = Date.now();
    this.offsetMs += this.sentMs;
    this.sentMs = 0;
    for (let attempt = 1; attempt <= (this.opts.maxReconnects ?? 5); attempt++) {
      this.on.reconnecting?.({ attempt, reason: `${code}${reason ? ` ${reason}` : ''}` });
      await sleep(Math.min(4000, 250 * 2 ** (attempt - 1)));
      if (this.terminating) return this.finish();
      try {
        await this.connect();
        const gapMs = Date.now() - lostAt;
        this.offsetMs += gapMs;
        this.on.reconnected?.({ session: this.session, gapMs });
        return;
      } catch {
        // next attempt
      }
    }
    this.fail(new AppError('network', 'Live transcription lost its connection and could not reconnect. Check your connection and start again.'));
  }

  private fail(err: AppError): void {
    this.on.error?.(err);
    this.finish();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.on.closed?.({ audioSeconds: (this.offsetMs + this.sentMs) / 1000 });
  }

  /** PCM16 mono audio, any length: sent in 50 ms frames; dropped (and counted) while reconnecting. */
  sendAudio(pcm: Buffer): void {
    if (this.done || this.terminating) return;
    this.pending = this.pending.length ? Buffer.concat([this.pending, pcm]) : pcm;
    while (this.pending.length >= this.frameBytes) {
      const frame = this.pending.subarray(0, this.frameBytes);
      this.pending = this.pending.subarray(this.frameBytes);
      if (this.ws?.readyState === WebSocket.OPEN) {
        this.ws.send(frame, { binary: true });
        this.sentMs += FRAME_MS;
      } else {
        this.droppedMs += FRAME_MS;
      }
    }
  }

  /** Milliseconds of audio dropped while the socket was down. */
  get lostMs(): number {
    return this.droppedMs;
  }

  private sendControl(msg: StreamingClientMessage): void {
    this.ws?.send(JSON.stringify(msg));
  }

  forceEndpoint(): void {
    this.sendControl({ type: 'ForceEndpoint' });
  }

  updateConfiguration(config: Omit<Extract<StreamingClientMessage, { type: 'UpdateConfiguration' }>, 'type'>): void {
    this.sendControl({ type: 'UpdateConfiguration', ...config });
  }

  /** Send Terminate, wait up to 5 s for Termination, close. */
  async terminate(): Promise<void> {
    if (this.done) return;
    this.terminating = true;
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      this.finish();
      return;
    }
    const got = new Promise<void>((r) => (this.termination = r));
    ws.send(JSON.stringify({ type: 'Terminate' } satisfies StreamingClientMessage));
    await Promise.race([got, sleep(5000)]);
    ws.close(1000);
    this.finish();
  }
}
