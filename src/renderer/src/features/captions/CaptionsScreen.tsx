/**
 * Live captions: pick the inputs, start and stop, watch each source's level
 * and state (reconnect notices, silence warnings, a live model too slow), read the captions panel,
 * pop the overlay out; a stopped session is in the library.
 */
import { useEffect, useRef, useState } from 'react';
import { sourceLabels, type LiveSource } from '../../../../shared/audio-frame';
import { Button } from '../../components/Button';
import { Switch } from '../../components/Switch';
import { errorMessage } from '../../bridge';
import { useApp } from '../../stores/app';
import { silentSource, useCaptions } from '../../stores/captions';
import { useSettings } from '../../stores/settings';
import { CaptionsExtras } from './CaptionsExtras';
import { CaptionsPanel } from './CaptionsPanel';
import { CaptionsSettings } from './CaptionsSettings';
import { ImproveAccuracy } from './ImproveAccuracy';
import { openOverlay } from './overlayWindow';
import { formatDelay } from './delay';

const sourceChoices: Array<{ value: 'mic' | 'system' | 'both'; label: string; help: string }> = [
  { value: 'mic', label: 'Microphone', help: 'What you say.' },
  { value: 'system', label: 'System audio', help: 'What the computer plays: a call, a video.' },
  { value: 'both', label: 'Both', help: 'A call: your microphone as “You”, the computer as “Others”.' },
];

const stateText: Record<string, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  recording: 'Recording only',
  stopped: 'Stopped',
  failed: 'Captions stopped',
};

function Meter({ source }: { source: LiveSource }) {
  const level = useCaptions((s) => s.levels[source] ?? 0);
  // RMS of speech sits around 0.02–0.3: a log scale shows quiet speech too.
  const pct = Math.round(Math.max(0, Math.min(1, (Math.log10(Math.max(level, 1e-4)) + 4) / 3.5)) * 100);
  return (
    <div
      className="meter"
      role="meter"
      aria-label={`${sourceLabels[source]} level`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      data-testid={`meter-${source}`}
    >
      <span className="meter__fill" style={{ width: `${pct}%` }} />
    </div>
  );
}

function SourceRows() {
  const status = useCaptions((s) => s.status);
  const labels = useCaptions((s) => s.inputLabels);
  const run = useCaptions((s) => s.run);
  if (!run) return null;
  const sources = (Object.keys(status) as LiveSource[]).sort();
  return (
    <ul className="cap-sources" aria-label="Inputs">
      {sources.map((src) => {
        const st = status[src]!;
        return (
          <li key={src} className="cap-source" data-testid={`source-${src}`}>
            <span className={`cap-src cap-src--${src}`}>{sourceLabels[src]}</span>
            <span className="cap-source__label">{labels[src] ?? (src === 'mic' ? 'Microphone' : 'System audio')}</span>
            <Meter source={src} />
            <span className={`cap-source__state cap-source__state--${st.state}`}>{stateText[st.state]}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** Settings, with the live-model picker of Settings → Models in view and focused. */
function openLiveModelPicker(setScreen: (s: 'settings') => void): void {
  setScreen('settings');
  const focus = (tries: number) => {
    const picker = document.getElementById('default-live');
    if (picker) {
      picker.scrollIntoView({ block: 'center' });
      picker.focus();
    } else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
  };
  requestAnimationFrame(() => focus(30));
}

/** The service's warnings for the running sessions; a live model slower than real time gets the way to a smaller one. */
function Warnings() {
  const status = useCaptions((s) => s.status);
  const setScreen = useApp((s) => s.setScreen);
  const warned = Object.values(status).filter((s) => s?.warning);
  // Both sources use the same live model: one notice is enough for the same words.
  const seen = new Set<string>();
  const shown = warned.filter((s) => !seen.has(s!.warning!.message) && seen.add(s!.warning!.message));
  if (shown.length === 0) return null;
  return (
    <>
      {shown.map((s) => {
        const w = s!.warning!;
        const slow = w.code === 'slower_than_real_time';
        return (
          <div key={s!.source} className="banner banner--warn" data-testid="caption-warning">
            <p>
              {slow ? <strong>Captions are falling behind. </strong> : null}
              {w.message || 'The transcription service sent a warning without a message.'}
            </p>
            {slow && (
              <div className="banner__actions">
                <Button size="sm" onClick={() => openLiveModelPicker(setScreen)}>
                  Choose a smaller live model
                </Button>
              </div>
            )}
          </div>
        );
      })}
    </>
  );
}

function Notices() {
  const status = useCaptions((s) => s.status);
  const phase = useCaptions((s) => s.phase);
  const lastLoud = useCaptions((s) => s.lastLoud);
  const run = useCaptions((s) => s.run);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (phase !== 'running') return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [phase]);
  const silent = silentSource({ lastLoud, run, phase }, now);
  const messages = Object.values(status).filter((s) => s?.message);
  return (
    <div role="status" aria-live="polite" className="cap-notices">
      {messages.map((m) => (
        <p key={m!.source} className={`banner ${m!.state === 'failed' ? 'banner--error' : 'banner--warn'}`} data-testid="caption-notice">
          {Object.keys(status).length > 1 ? `${sourceLabels[m!.source]}: ` : ''}
          {m!.message}
        </p>
      ))}
      <Warnings />
      {silent && (
        <p className="banner banner--warn" data-testid="silence-warning">
          {silent === 'mic'
            ? 'Your microphone has been silent for 10 seconds while others speak. Check that it is not muted and that the right one is picked.'
            : 'Nothing has come from the computer for 10 seconds while you speak: the other side of the call may be missing. Check what is shared.'}
        </p>
      )}
    </div>
  );
}

function Latency() {
  const ms = useCaptions((s) => s.latencyMs);
  const phase = useCaptions((s) => s.phase);
  if (ms === null || phase !== 'running') return null;
  return (
    <span className="muted cap-latency" title="Time from the moment a word was captured to its caption on screen, measured" data-testid="caption-latency">
      Delay {formatDelay(ms)}
    </span>
  );
}

function Saved() {
  const stopped = useCaptions((s) => s.lastStopped);
  const openTranscript = useApp((s) => s.openTranscript);
  if (!stopped) return null;
  return (
    <div className="banner banner--ok cap-saved" role="status" data-testid="caption-saved">
      <span>
        Saved to the library: {stopped.turns} {stopped.turns === 1 ? 'turn' : 'turns'}, {Math.round(stopped.durationMs / 1000)} s
        {stopped.hasAudio ? ' with its recording' : ', no recording (no audio arrived)'}.
        {stopped.lostMs > 0 ? ` ${Math.round(stopped.lostMs / 1000)} s were recorded but not captioned while reconnecting.` : ''}
      </span>
      <Button size="sm" onClick={() => openTranscript(stopped.recordingId)}>
        Open
      </Button>
      {stopped.hasAudio && <ImproveAccuracy recordingId={stopped.recordingId} />}
    </div>
  );
}

export function CaptionsScreen() {
  const phase = useCaptions((s) => s.phase);
  const error = useCaptions((s) => s.error);
  const devices = useCaptions((s) => s.devices);
  const start = useCaptions((s) => s.start);
  const stop = useCaptions((s) => s.stop);
  const refreshDevices = useCaptions((s) => s.refreshDevices);
  const c = useSettings((s) => s.settings.captions);
  const update = useSettings((s) => s.update);
  const [overlayError, setOverlayError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const busy = phase === 'starting' || phase === 'stopping';
  const running = phase === 'running';
  const locked = phase !== 'idle';

  useEffect(() => {
    void refreshDevices();
    const md = navigator.mediaDevices;
    if (!md) return;
    const onChange = () => void refreshDevices();
    md.addEventListener('devicechange', onChange);
    return () => md.removeEventListener('devicechange', onChange);
  }, [refreshDevices]);

  const set = (patch: Partial<typeof c>) => void update({ captions: { ...c, ...patch } });
  const mics = devices.filter((d) => !d.isMonitor);
  const hasMonitor = devices.some((d) => d.isMonitor);
  const systemPossible = hasMonitor || typeof navigator.mediaDevices?.getDisplayMedia === 'function';

  return (
    <div className="page page--wide cap-page">
      <header className="page__header">
        <h1 ref={heading} tabIndex={-1}>
          Live captions
        </h1>
        <div className="cap-actions">
          <Latency />
          <Button
            icon="panel"
            onClick={() => {
              setOverlayError(null);
              openOverlay().catch((e: unknown) => setOverlayError(errorMessage(e)));
            }}
          >
            Pop out captions
          </Button>
          {running || phase === 'stopping' ? (
            <Button variant="danger" icon="pause" busy={phase === 'stopping'} onClick={() => void stop()} data-testid="captions-stop">
              Stop
            </Button>
          ) : (
            <Button variant="primary" icon="mic" busy={busy} onClick={() => void start()} data-testid="captions-start">
              {c.recordOnly ? 'Start recording' : 'Start'}
            </Button>
          )}
        </div>
      </header>

      <section className="card cap-controls" aria-label="Inputs">
        {/* While a session runs its inputs cannot change: one line says what is heard, so the captions stay in view on a small window. */}
        {locked ? (
          <p className="cap-listening" data-testid="captions-listening">
            Listening to <strong>{sourceChoices.find((o) => o.value === c.sources)?.label ?? 'Microphone'}</strong>
            {c.sources !== 'system' && <> · {mics.find((d) => d.deviceId === c.micDeviceId)?.label ?? 'Default microphone'}</>}
            {c.recordOnly && <> · recording only, to transcribe later</>}
          </p>
        ) : (
          <>
            <fieldset className="fieldset cap-choice" disabled={locked}>
              <legend>Listen to</legend>
              {sourceChoices.map((o) => (
                <label key={o.value} className="check">
                  <input type="radio" name="cap-sources" value={o.value} checked={c.sources === o.value} onChange={() => set({ sources: o.value })} />
                  <span>
                    {o.label} <span className="muted">{o.help}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            {c.sources !== 'mic' && !systemPossible && (
              <p className="banner banner--warn">
                This system offers no way to capture what the computer plays (no “Monitor of …” input, and the browser cannot share screen audio). Use the
                microphone instead.
              </p>
            )}
            {c.sources !== 'mic' && systemPossible && !hasMonitor && (
              <p className="field__help">When you start, pick a tab or screen to share and tick “Share audio”: only its sound is used, never the picture.</p>
            )}
            <div className="grid2">
              {c.sources !== 'system' && (
                <div className="field">
                  <label htmlFor="cap-mic">Microphone</label>
                  <select id="cap-mic" value={c.micDeviceId} disabled={locked} onChange={(e) => set({ micDeviceId: e.target.value })}>
                    <option value="">Default microphone</option>
                    {mics.map((d) => (
                      <option key={d.deviceId} value={d.deviceId}>
                        {d.label}
                      </option>
                    ))}
                    {c.micDeviceId && !mics.some((d) => d.deviceId === c.micDeviceId) && (
                      <option value={c.micDeviceId}>Last used microphone (not connected)</option>
                    )}
                  </select>
                  {mics.length === 0 && <p className="field__help">Names appear once Verbatim may use the microphone (after the first start).</p>}
                </div>
              )}
              <Switch
                label="Record only, transcribe later"
                checked={c.recordOnly}
                disabled={locked}
                onChange={(v) => set({ recordOnly: v })}
                help="For a slow computer or no network: the session is saved with its recording; use Improve accuracy to transcribe it."
              />
            </div>
          </>
        )}
        {phase === 'starting' && (
          <p className="muted" role="status">
            Opening the inputs and connecting to live transcription… The local engine may need a few seconds to start.
          </p>
        )}
        <SourceRows />
        <Notices />
        {error && (
          <p className="banner banner--error" role="alert" data-testid="captions-error">
            {error}
          </p>
        )}
        {overlayError && (
          <p className="banner banner--error" role="alert">
            {overlayError}
          </p>
        )}
        <Saved />
      </section>

      <CaptionsPanel />
      <CaptionsExtras />
      <CaptionsSettings />
    </div>
  );
}
