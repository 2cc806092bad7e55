/** Caption settings: audio processing, turn detection, key terms, and the overlay's look. */
import { useEffect, useState } from 'react';
import type { SettingsView } from '../../../../shared/settings';
import { STREAMING_DEFAULT_MODEL } from '../../../../shared/api/service-models';
import { Switch } from '../../components/Switch';
import { serviceModelChoices } from '../../lib/serviceModels';
import { useSettings } from '../../stores/settings';
import { useTemplates } from '../../stores/templates';

type Captions = SettingsView['captions'];

/** The cloud's live models, from the one list of the service's models; the service's default comes preselected. */
const streamingChoices = serviceModelChoices('streaming');

const eotChoices: Array<{ value: Captions['endOfTurn']; label: string }> = [
  { value: 'quick', label: 'Quick: a short pause ends a turn' },
  { value: 'balanced', label: 'Balanced' },
  { value: 'patient', label: 'Patient: waits through longer pauses' },
];

export function CaptionsSettings() {
  const c = useSettings((s) => s.settings.captions);
  const region = useSettings((s) => s.settings.region);
  const model = streamingChoices.find((m) => m.id === c.speechModel) ?? streamingChoices.find((m) => m.id === STREAMING_DEFAULT_MODEL);
  const update = useSettings((s) => s.update);
  const [terms, setTerms] = useState<string | null>(null);
  const set = (patch: Partial<Captions>) => void update({ captions: { ...c, ...patch } });
  const setOverlay = (patch: Partial<Captions['overlay']>) => set({ overlay: { ...c.overlay, ...patch } });
  const liveSummary = useSettings((s) => s.settings.liveSummary ?? 'plain');
  const silence = useSettings((s) => s.settings.silenceStopMinutes ?? 15);
  const [silenceText, setSilenceText] = useState<string | null>(null);
  const silenceValue = silenceText ?? String(silence);
  const silenceOk = /^\d{1,3}$/.test(silenceValue.trim()) && Number(silenceValue) <= 240;
  const templates = useTemplates((s) => s.templates);
  useEffect(() => {
    void useTemplates.getState().load();
  }, []);

  return (
    <details className="card cap-settings">
      <summary>
        <h2>Caption settings</h2>
      </summary>
      <div className="grid2">
        <Switch label="Echo cancellation" checked={c.echoCancellation} onChange={(v) => set({ echoCancellation: v })} />
        <Switch label="Noise suppression" checked={c.noiseSuppression} onChange={(v) => set({ noiseSuppression: v })} />
        <Switch label="Automatic gain" checked={c.autoGainControl} onChange={(v) => set({ autoGainControl: v })} />
        <Switch label="Formatted turns (punctuation, capitals)" checked={c.formatTurns} onChange={(v) => set({ formatTurns: v })} />
        <Switch label="Tell apart who speaks in the system audio" checked={c.speakerLabels ?? false} onChange={(v) => set({ speakerLabels: v })} />
      </div>
      <div className="grid2">
        {region !== 'local' && (
          <div className="field">
            <label htmlFor="cap-model">Live model</label>
            <select
              id="cap-model"
              value={model?.id ?? STREAMING_DEFAULT_MODEL}
              onChange={(e) => set({ speechModel: e.target.value })}
              aria-describedby="cap-model-help"
              data-testid="captions-model"
            >
              {streamingChoices.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.label}
                  {m.id === STREAMING_DEFAULT_MODEL ? ' (the service’s default)' : ''}
                </option>
              ))}
            </select>
            <p id="cap-model-help" className="field__help">
              {model?.help} Applies to the next session.
            </p>
          </div>
        )}
        <div className="field">
          <label htmlFor="cap-summary">Summary when you press Stop</label>
          <select id="cap-summary" value={liveSummary} onChange={(e) => void update({ liveSummary: e.target.value })} aria-describedby="cap-summary-help">
            <option value="off">None</option>
            <option value="plain">Plain summary</option>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
          <p id="cap-summary-help" className="field__help">
            Written as the session goes, ten minutes at a time, so it is ready moments after Stop. Needs a model that writes.
          </p>
        </div>
        <div className="field">
          <label htmlFor="cap-silence">Stop after minutes without speech</label>
          <input
            id="cap-silence"
            type="text"
            inputMode="numeric"
            value={silenceValue}
            aria-describedby="cap-silence-help"
            aria-invalid={!silenceOk || undefined}
            onChange={(e) => setSilenceText(e.target.value)}
            onBlur={() => {
              if (silenceOk) void update({ silenceStopMinutes: Number(silenceValue) });
              setSilenceText(null);
            }}
          />
          <p id="cap-silence-help" className={silenceOk ? 'field__help' : 'field__error'}>
            {silenceOk
              ? 'When no one speaks for this long, the session asks “Still recording?” and stops a minute later, keeping everything. 0: never.'
              : 'Enter a whole number of minutes from 0 to 240.'}
          </p>
        </div>
        <div className="field">
          <label htmlFor="cap-eot">End of turn</label>
          <select id="cap-eot" value={c.endOfTurn} onChange={(e) => set({ endOfTurn: e.target.value as Captions['endOfTurn'] })}>
            {eotChoices.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="cap-terms">Key terms</label>
          <input
            id="cap-terms"
            type="text"
            value={terms ?? c.keyterms.join(', ')}
            onChange={(e) => setTerms(e.target.value)}
            onBlur={() => {
              if (terms === null) return;
              const list = [
                ...new Set(
                  terms
                    .split(',')
                    .map((t) => t.trim())
                    .filter(Boolean),
                ),
              ]
                .slice(0, 100)
                .map((t) => t.slice(0, 50));
              set({ keyterms: list });
              setTerms(null);
            }}
            aria-describedby="cap-terms-help"
          />
          <p id="cap-terms-help" className="field__help">
            Names and jargon to recognise, separated by commas.
          </p>
        </div>
      </div>
      <fieldset className="fieldset">
        <legend>Overlay</legend>
        <div className="grid2">
          <div className="field">
            <label htmlFor="cap-font">Text size: {c.overlay.fontSize} px</label>
            <input
              id="cap-font"
              type="range"
              min={16}
              max={72}
              step={2}
              value={c.overlay.fontSize}
              onChange={(e) => setOverlay({ fontSize: Number(e.target.value) })}
            />
          </div>
          <div className="field">
            <label htmlFor="cap-lines">Lines</label>
            <select id="cap-lines" value={c.overlay.lines} onChange={(e) => setOverlay({ lines: Number(e.target.value) })}>
              <option value={1}>1</option>
              <option value={2}>2</option>
              <option value={3}>3</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="cap-opacity">Background opacity: {Math.round(c.overlay.opacity * 100)}%</label>
            <input
              id="cap-opacity"
              type="range"
              min={0.3}
              max={1}
              step={0.05}
              value={c.overlay.opacity}
              onChange={(e) => setOverlay({ opacity: Number(e.target.value) })}
            />
          </div>
          <div className="field cap-colours">
            <label htmlFor="cap-fg">Text colour</label>
            <input id="cap-fg" type="color" value={c.overlay.textColor} onChange={(e) => setOverlay({ textColor: e.target.value })} />
            <label htmlFor="cap-bg">Background colour</label>
            <input id="cap-bg" type="color" value={c.overlay.backgroundColor} onChange={(e) => setOverlay({ backgroundColor: e.target.value })} />
          </div>
          <Switch
            label="Clicks pass through the overlay"
            checked={c.overlay.clickThrough}
            onChange={(v) => setOverlay({ clickThrough: v })}
            help="Desktop app: the overlay cannot be moved while this is on. Toggle it with Ctrl+Shift+L or the tray menu."
          />
        </div>
      </fieldset>
    </details>
  );
}
