/** Live captions: the run, its turns as they grow, each source's state and level, and the capture itself. */
import { create, type StateCreator, type StoreApi } from 'zustand';
import { offeredServiceModels } from '../../../shared/api/service-models';
import type { LiveSource } from '../../../shared/audio-frame';
import type { CaptionsRun, CaptionsStopped, LiveStatus, LiveTurn } from '../../../shared/captions';
import type { MissedSummary, TranslationStatus } from '../../../shared/captions-extras';
import type { VerbatimApi } from '../../../shared/ipc';
import {
  captureErrorText,
  listInputs,
  LiveCapture,
  openMicrophone,
  openSystemAudio,
  recordingMime,
  type CaptureInput,
  type InputDevice,
} from '../audio/capture';
import { api as bridgeApi, errorMessage, saveExportFile } from '../bridge';
import { afterPaint } from '../lib/afterPaint';
import { whenConnected } from './app';
import { useSettings } from './settings';

/** A source silent this long while the other one speaks gets a warning. */
export const SILENCE_WARN_MS = 10_000;
const LOUD = 0.01;

export type Phase = 'idle' | 'starting' | 'running' | 'stopping';

export interface CaptionsState {
  phase: Phase;
  run: CaptionsRun | null;
  /** Turn keys in time order, and the turns by key. */
  order: string[];
  turns: Record<string, LiveTurn>;
  status: Partial<Record<LiveSource, LiveStatus>>;
  levels: Partial<Record<LiveSource, number>>;
  /** Last time each source was above the speaking level (epoch ms). */
  lastLoud: Partial<Record<LiveSource, number>>;
  /** Capture → screen of the latest words (ms), smoothed; null before the first. */
  latencyMs: number | null;
  error: string | null;
  lastStopped: CaptionsStopped | null;
  devices: InputDevice[];
  /** Labels of the inputs used by the run. */
  inputLabels: Partial<Record<LiveSource, string>>;
  refreshDevices(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  loadCurrent(): Promise<void>;
  /** The desktop app's captions window (a window main owns, over other apps). */
  showDesktopOverlay(): Promise<void>;
  /** The recording being played back while capture goes on (a new `nonce` on each request), or null. */
  replay: Replay | null;
  /** Seconds of this window's recording that can be played back (0: none yet). */
  recordedS: number;
  /** Play the recording from a moment of the run (ms from its start). */
  replayFrom(ms: number): void;
  /** Play the last `seconds` of the recording. */
  replayLast(seconds: number): void;
  stopReplay(): void;
  /** Final turns' translations by turn key. */
  translations: Record<string, string>;
  translation: TranslationStatus | null;
  /** Turn translation on (a language code) or off (null) for this run and the next. */
  setTranslation(language: string | null): Promise<void>;
  /** "What did I miss?": the summary being written or the last one, and the request's error. */
  missed: MissedSummary | null;
  missedError: string | null;
  askMissed(input: { minutes: 2 | 5 | 10 } | { sinceMs: number }): Promise<void>;
  stopMissed(): Promise<void>;
  /** "Still recording?": no one spoke for a while; the session stops at `stopAt` (ISO) unless kept. */
  stillRecording: { run: number; stopAt: string; silentMinutes: number } | null;
  /** "Keep recording": withdraws the question. */
  keepRecording(): Promise<void>;
  /** Download a session's captions as SRT or VTT: the original lines, their translation, or both; answers the file name. */
  exportCaptions(recordingId: string, format: 'srt' | 'vtt', text: 'original' | 'translation' | 'both'): Promise<string>;
}

export interface Replay {
  url: string;
  /** Where to start, in seconds of the recording. */
  fromS: number;
  nonce: number;
}

let capture: LiveCapture | null = null;

/**
 * This window's copy of the recording's chunks, as MediaRecorder hands them to
 * main: a Blob of them plays in an audio element while capture goes on. The
 * recorder starts with the run's first frame, so a turn's time is the
 * recording's time.
 */
const recording = { chunks: [] as Blob[], mime: '', startedAt: 0, lastAt: 0, url: null as string | null, nonce: 0 };

function resetRecording(mime: string): void {
  if (recording.url) URL.revokeObjectURL(recording.url);
  Object.assign(recording, { chunks: [], mime, startedAt: Date.now(), lastAt: 0, url: null });
}

function replayAt(fromS: number): Replay | null {
  if (recording.chunks.length === 0) return null;
  if (recording.url) URL.revokeObjectURL(recording.url);
  // A new Blob each time: it holds every chunk so far (the parts are shared, not copied).
  recording.url = URL.createObjectURL(new Blob(recording.chunks, { type: recording.mime }));
  return { url: recording.url, fromS: Math.max(0, fromS), nonce: ++recording.nonce };
}

function byTime(turns: Record<string, LiveTurn>) {
  return (a: string, b: string) => {
    const x = turns[a]!;
    const y = turns[b]!;
    return x.startMs - y.startMs || (x.source === y.source ? 0 : x.source === 'mic' ? -1 : 1);
  };
}

/** The store's state and actions over `api` (zustand's StateCreator, apart from create: a test builds one against a fake api). */
export const captionsState =
  (api: VerbatimApi): StateCreator<CaptionsState> =>
  (set, get) => ({
    phase: 'idle',
    run: null,
    order: [],
    turns: {},
    status: {},
    levels: {},
    lastLoud: {},
    latencyMs: null,
    error: null,
    lastStopped: null,
    devices: [],
    inputLabels: {},
    replay: null,
    recordedS: 0,
    translations: {},
    translation: null,
    missed: null,
    missedError: null,
    stillRecording: null,

    async keepRecording() {
      const ask = get().stillRecording;
      set({ stillRecording: null });
      if (ask) await api.invoke('captions.keepRecording', { run: ask.run }).catch(() => undefined);
    },

    async refreshDevices() {
      try {
        set({ devices: await listInputs() });
      } catch {
        set({ devices: [] });
      }
    },

    async start() {
      if (get().phase !== 'idle') return;
      const c = useSettings.getState().settings.captions;
      const sources: LiveSource[] = c.sources === 'both' ? ['mic', 'system'] : [c.sources];
      set({
        phase: 'starting',
        error: null,
        lastStopped: null,
        order: [],
        turns: {},
        status: {},
        levels: {},
        lastLoud: {},
        latencyMs: null,
        translations: {},
        missed: null,
        missedError: null,
        stillRecording: null,
      });
      const inputs: CaptureInput[] = [];
      const labels: Partial<Record<LiveSource, string>> = {};
      const fail = (message: string) => {
        for (const i of inputs) for (const t of i.stream.getTracks()) t.stop();
        set({ phase: 'idle', error: message });
      };
      // Devices first: nothing is created in the library until every input is open.
      for (const source of sources) {
        try {
          if (source === 'mic') {
            const stream = await openMicrophone({
              deviceId: c.micDeviceId,
              echoCancellation: c.echoCancellation,
              noiseSuppression: c.noiseSuppression,
              autoGainControl: c.autoGainControl,
            });
            inputs.push({ source, stream });
            labels.mic = stream.getAudioTracks()[0]?.label || 'Microphone';
          } else {
            const sys = await openSystemAudio();
            inputs.push({ source, stream: sys.stream });
            labels.system = sys.label;
          }
        } catch (e) {
          return fail(captureErrorText(e, source === 'mic' ? 'microphone' : 'system audio'));
        }
      }
      void get().refreshDevices();
      const mime = recordingMime();
      let run: CaptionsRun;
      try {
        run = await api.invoke('captions.start', {
          sources,
          recordOnly: c.recordOnly,
          endOfTurn: c.endOfTurn,
          formatTurns: c.formatTurns,
          keyterms: c.keyterms,
          speakerLabels: c.speakerLabels ?? false,
          // A choice the service has since retired is not sent: the session runs on the service's default.
          ...(c.speechModel && offeredServiceModels('streaming').some((m) => m.id === c.speechModel) ? { speechModel: c.speechModel } : {}),
          deviceLabels: labels,
          recordingMime: mime,
        });
      } catch (e) {
        return fail(errorMessage(e));
      }
      const now = Date.now();
      set({ run, inputLabels: labels, lastLoud: Object.fromEntries(sources.map((s) => [s, now])), replay: null, recordedS: 0 });
      resetRecording(mime);
      capture = new LiveCapture(run.run, inputs, mime, {
        level: (source, level) => onLevel(set, source, level),
        recorded: (chunk, at) => {
          recording.chunks.push(chunk);
          recording.lastAt = at;
          set({ recordedS: Math.max(0, (at - recording.startedAt) / 1000) });
        },
        ended: (source) =>
          set((s) => ({
            error: `${source === 'mic' ? 'The microphone' : 'System audio sharing'} stopped (unplugged or sharing ended). Captions from it stopped; what came before is kept. Stop and start again to continue.`,
            levels: { ...s.levels, [source]: 0 },
          })),
      });
      // The run translates as the settings say (main may remember another window's earlier choice).
      void get().setTranslation(c.translateTo || null);
      try {
        await capture.start();
        set({ phase: 'running' });
      } catch (e) {
        await capture.stop().catch(() => undefined);
        capture = null;
        await api.invoke('captions.stop', { run: run.run }).catch(() => undefined);
        set({ phase: 'idle', run: null, error: `Audio capture could not start: ${errorMessage(e)}` });
      }
    },

    async stop() {
      const run = get().run;
      if (!run || get().phase === 'stopping') return;
      set({ phase: 'stopping' });
      await capture?.stop().catch(() => undefined);
      capture = null;
      try {
        const stopped = await api.invoke('captions.stop', { run: run.run });
        set({ phase: 'idle', run: null, lastStopped: stopped, levels: {} });
      } catch (e) {
        set({ phase: 'idle', run: null, levels: {}, error: `The session could not be saved: ${errorMessage(e)}` });
      }
    },

    async loadCurrent() {
      try {
        const cur = await api.invoke('captions.current');
        const turns = Object.fromEntries(cur.turns.map((t) => [t.key, t]));
        set((s) => ({
          run: cur.run,
          phase: cur.run ? (capture ? s.phase : 'running') : capture ? s.phase : 'idle',
          turns,
          order: Object.keys(turns).sort(byTime(turns)),
          status: Object.fromEntries(cur.status.map((x) => [x.source, x])),
          translations: cur.translations ?? {},
        }));
      } catch {
        // not connected yet: the events fill in
      }
    },
    async showDesktopOverlay() {
      await api.invoke('captions.overlay', { show: true });
    },

    replayFrom(ms) {
      // A moment before the line's first word, so its start is heard.
      const replay = replayAt(ms / 1000 - 0.3);
      if (replay) set({ replay });
    },
    replayLast(seconds) {
      const replay = replayAt(get().recordedS - seconds);
      if (replay) set({ replay });
    },
    stopReplay() {
      set({ replay: null });
    },

    async setTranslation(language) {
      try {
        set({ translation: await api.invoke('captions.translate', { language }) });
      } catch (e) {
        set({
          translation: {
            run: get().run?.run ?? null,
            language,
            state: 'unavailable',
            model: null,
            region: null,
            dropped: 0,
            maxDepth: 0,
            message: errorMessage(e),
          },
        });
      }
    },
    async askMissed(input) {
      set({ missedError: null });
      try {
        set({ missed: await api.invoke('captions.missed', input) });
      } catch (e) {
        set({ missedError: errorMessage(e) });
      }
    },
    async stopMissed() {
      await api.invoke('captions.missedStop').catch(() => undefined);
    },
    async exportCaptions(recordingId, format, text) {
      const out = await api.invoke('library.export', { id: recordingId, format, captionText: text });
      saveExportFile(out);
      return out.filename;
    },
  });

export const useCaptions = create<CaptionsState>()(captionsState(bridgeApi));

let levelQueued: Partial<Record<LiveSource, number>> = {};
let levelTimer: ReturnType<typeof setTimeout> | null = null;
/** Levels arrive 20 times a second per source; the meter is redrawn at 10/s. */
function onLevel(set: StoreApi<CaptionsState>['setState'], source: LiveSource, level: number): void {
  levelQueued[source] = Math.max(levelQueued[source] ?? 0, level);
  if (levelTimer) return;
  levelTimer = setTimeout(() => {
    levelTimer = null;
    const q = levelQueued;
    levelQueued = {};
    const now = Date.now();
    set((s) => {
      const lastLoud = { ...s.lastLoud };
      for (const [k, v] of Object.entries(q)) if (v >= LOUD) lastLoud[k as LiveSource] = now;
      return { levels: { ...s.levels, ...q }, lastLoud };
    });
  }, 100);
}

/** Which source has been silent for 10 s while the other spoke, if any. */
export function silentSource(s: Pick<CaptionsState, 'lastLoud' | 'run' | 'phase'>, now: number): LiveSource | null {
  if (s.phase !== 'running') return null;
  const { mic, system } = s.lastLoud;
  if (mic === undefined || system === undefined) return null;
  if (now - mic >= SILENCE_WARN_MS && now - system < SILENCE_WARN_MS) return 'mic';
  if (now - system >= SILENCE_WARN_MS && now - mic < SILENCE_WARN_MS) return 'system';
  return null;
}

/** Follows the run's turns, statuses and runs started elsewhere; called once from main.tsx (a test passes its own store). */
export function connectCaptions(api: VerbatimApi, store: StoreApi<CaptionsState> = useCaptions): () => void {
  let stopTimer: ReturnType<typeof setTimeout> | null = null;
  const offs = [
    api.on('captions.turn', (t) => {
      const s = store.getState();
      if (s.run && t.run !== s.run.run) return;
      const known = t.key in s.turns;
      const turns = { ...s.turns, [t.key]: t };
      let order = s.order;
      if (!known) {
        order = [...s.order, t.key];
        // Nearly always already in order; a turn of the other source may start earlier.
        const cmp = byTime(turns);
        if (order.length > 1 && cmp(order[order.length - 2]!, t.key) > 0) order.sort(cmp);
      }
      store.setState({ turns, order });
      // Growing turns only: a final turn comes after the end-of-turn silence by design, and counting
      // that wait would show a delay of a second while words appear in a third of it.
      if (t.capturedAt !== null && !t.final) {
        const capturedAt = t.capturedAt;
        // Measured once the words are painted.
        afterPaint(() => {
          // Whole milliseconds: the capture time is fractional (the audio clock's), and the first one is shown as it is.
          const ms = Math.max(0, Math.round(Date.now() - capturedAt));
          store.setState((x) => ({ latencyMs: x.latencyMs === null ? ms : Math.round(x.latencyMs * 0.7 + ms * 0.3) }));
        });
      }
    }),
    api.on('captions.status', (st) => {
      const s = store.getState();
      if (s.run && st.run !== s.run.run) return;
      store.setState({ status: { ...s.status, [st.source]: st } });
    }),
    api.on('captions.run', (p) => {
      // Another window (or the overlay) follows the run; this window's own start/stop set it directly.
      const s = store.getState();
      // Main stopped this window's run itself (a silent session nobody answered): the capture stops too.
      if (!p.run && capture && s.phase === 'running' && p.stopped && s.run?.run === p.stopped.run) {
        void capture.stop().catch(() => undefined);
        capture = null;
        store.setState({ run: null, phase: 'idle', lastStopped: p.stopped, levels: {}, stillRecording: null });
        return;
      }
      if (capture || s.phase === 'starting' || s.phase === 'stopping') return;
      if (p.run && s.run?.run !== p.run.run) store.setState({ run: p.run, phase: 'running', order: [], turns: {}, status: {}, translations: {}, missed: null });
      if (!p.run) store.setState({ run: null, phase: 'idle', lastStopped: p.stopped });
    }),
    api.on('captions.translation', (t) => {
      const s = store.getState();
      if (s.run && t.run !== s.run.run) return;
      store.setState({ translations: { ...s.translations, [t.key]: t.text } });
    }),
    api.on('captions.translationStatus', (st) => store.setState({ translation: st })),
    api.on('captions.stillRecording', (q) => {
      const s = store.getState();
      if (s.run?.run !== q.run) return;
      if (stopTimer) clearTimeout(stopTimer);
      stopTimer = null;
      if (!q.stopAt) return store.setState({ stillRecording: null });
      store.setState({ stillRecording: { run: q.run, stopAt: q.stopAt, silentMinutes: q.silentMinutes } });
      // The window that captures stops the session at that moment, so its last audio is kept with it.
      if (capture)
        stopTimer = setTimeout(
          () => {
            stopTimer = null;
            const now = store.getState();
            if (now.stillRecording?.run === q.run && now.run?.run === q.run) void now.stop().then(() => store.setState({ stillRecording: null }));
          },
          Math.max(0, Date.parse(q.stopAt) - Date.now()),
        );
    }),
    api.on('captions.missed', (m) => {
      const cur = store.getState().missed;
      // Only the summary asked for last (another window may ask too: it is the same run's).
      if (!cur || cur.id === m.id || m.createdAt >= cur.createdAt) store.setState({ missed: m });
    }),
    whenConnected(() => void store.getState().loadCurrent()),
  ];
  return () => {
    if (stopTimer) clearTimeout(stopTimer);
    offs.forEach((off) => off());
  };
}
