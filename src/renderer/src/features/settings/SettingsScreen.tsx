/** Settings: service and key, defaults for new jobs, webhook, library, appearance, about. */
import { useState } from 'react';
import type { Region, Theme } from '../../../../shared/settings';
import { regionLabels } from '../../components/labels';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { Switch } from '../../components/Switch';
import { useApp } from '../../stores/app';
import { useEngine } from '../../stores/localEngine';
import { useSettings } from '../../stores/settings';
import { DefaultsSection } from './DefaultsSection';
import { KeySection } from './KeySection';

const themes: Array<{ value: Theme; label: string }> = [
  { value: 'system', label: 'Match system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

const regionHelp: Record<Region, string> = {
  us: 'AssemblyAI, United States data centre. Needs an API key.',
  eu: 'AssemblyAI, European Union data centre; your audio stays in the EU. Needs an API key.',
  local: 'The engine built into Verbatim, on this computer. No key, no network, English only.',
  custom: 'Your own AssemblyAI-compatible service at the addresses below.',
};

/** A text setting saved when the field loses focus (not on every keystroke). */
function TextSetting({ id, label, value, onSave, type = 'text', placeholder, help }: { id: string; label: string; value: string; onSave(v: string): Promise<boolean>; type?: string; placeholder?: string; help?: string }) {
  const [draft, setDraft] = useState(value);
  const [invalid, setInvalid] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={draft}
        placeholder={placeholder}
        autoComplete="off"
        aria-invalid={invalid || undefined}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={async () => {
          if (draft === value) return;
          setInvalid(!(await onSave(draft.trim())));
        }}
      />
      {invalid ? <p className="field__error">This is not a valid address. Use one that starts with https:// (or http:// for this computer).</p> : help && <p className="field__help">{help}</p>}
    </div>
  );
}

function ServiceSection() {
  const settings = useSettings((s) => s.settings);
  const update = useSettings((s) => s.update);
  return (
    <section className="card" aria-labelledby="service-title">
      <h2 id="service-title">Transcription service</h2>
      <div className="field">
        <label htmlFor="region">Region</label>
        <select id="region" value={settings.region} onChange={(e) => void update({ region: e.target.value as Region })}>
          {(Object.keys(regionLabels) as Region[]).map((r) => (
            <option key={r} value={r}>
              {r === 'local' ? 'Local (this computer)' : regionLabels[r]}
            </option>
          ))}
        </select>
        <p className="field__help">{regionHelp[settings.region]} Each transcript remembers where it was made.</p>
      </div>
      {settings.region === 'custom' && (
        <div className="subsection">
          <TextSetting key={`custom-rest:${settings.customRestUrl}`} id="custom-rest" label="REST address" type="url" placeholder="https://asr.example.org" value={settings.customRestUrl} onSave={(v) => update({ customRestUrl: v })} />
          <TextSetting key={`custom-ws:${settings.customStreamingUrl}`} id="custom-ws" label="Streaming address (optional)" type="url" placeholder="wss://asr.example.org" value={settings.customStreamingUrl} onSave={(v) => update({ customStreamingUrl: v })} help="Empty: derived from the REST address." />
          <TextSetting key={`custom-gw:${settings.customGatewayUrl}`} id="custom-gw" label="Gateway address (optional)" type="url" value={settings.customGatewayUrl} onSave={(v) => update({ customGatewayUrl: v })} help="Empty: the REST address." />
        </div>
      )}
    </section>
  );
}

function WebhookSection() {
  const settings = useSettings((s) => s.settings);
  const update = useSettings((s) => s.update);
  return (
    <section className="card" aria-labelledby="webhook-title">
      <h2 id="webhook-title">Webhook (optional)</h2>
      <p className="field__help">For teams whose own server also wants each result: the service calls this address when a transcript is done (US, EU or a custom service; the local engine's results stay on this computer). Each transcript's details show what your server answered.</p>
      <TextSetting key={`webhook-url:${settings.webhookUrl}`} id="webhook-url" label="Webhook URL" type="url" placeholder="https://example.org/hooks/transcripts" value={settings.webhookUrl} onSave={(v) => update({ webhookUrl: v })} />
      <div className="grid2">
        <TextSetting key={`webhook-h:${settings.webhookAuthHeaderName}`} id="webhook-h" label="Auth header name" placeholder="X-Webhook-Secret" value={settings.webhookAuthHeaderName} onSave={(v) => update({ webhookAuthHeaderName: v })} />
        <TextSetting key={`webhook-v:${settings.webhookAuthHeaderValue}`} id="webhook-v" label="Auth header value" type="password" value={settings.webhookAuthHeaderValue} onSave={(v) => update({ webhookAuthHeaderValue: v })} />
      </div>
    </section>
  );
}

function LibrarySection() {
  const settings = useSettings((s) => s.settings);
  const update = useSettings((s) => s.update);
  const info = useApp((s) => s.info);
  return (
    <section className="card" aria-labelledby="library-title">
      <h2 id="library-title">Library</h2>
      <div className="field">
        <span className="field__label">Library folder</span>
        <code className="path" data-testid="library-folder">
          {info?.dataDir ?? '…'}
        </code>
        <p className="field__help">Transcripts and audio copies live here. {info?.mode === 'host' ? 'Start host mode with --data DIR to use another folder.' : ''}</p>
      </div>
      <Switch
        label="Keep a copy of the audio"
        checked={settings.keepAudioCopy}
        onChange={(v) => void update({ keepAudioCopy: v })}
        help="Lets you play recordings in the library even after the original file moves or the service deletes it."
      />
      <div className="field">
        <label htmlFor="concurrency">Uploads at once</label>
        <select id="concurrency" value={settings.uploadConcurrency} onChange={(e) => void update({ uploadConcurrency: Number(e.target.value) })}>
          {[1, 2, 3, 4, 6, 8].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
    </section>
  );
}

function EngineFacts() {
  const status = useEngine((s) => s.status);
  const start = useEngine((s) => s.start);
  const info = useApp((s) => s.info);
  const missing = info?.missingEnginePackages ?? [];
  const tone = status?.state === 'running' ? 'ok' : status?.state === 'failed' ? 'danger' : status?.state === 'stopped' ? 'neutral' : 'warn';
  return (
    <>
      <dt>Local engine</dt>
      <dd className="engine-facts">
        <span>
          <Badge tone={tone}>{status ? status.state[0]?.toUpperCase() + status.state.slice(1) : 'Unknown'}</Badge>
          {status?.url && <code> {status.url}</code>}
          {status && status.restarts > 0 && <span className="muted"> · restarted {status.restarts}×</span>}
        </span>
        {status?.message && <span className={status.state === 'failed' ? 'field__error' : 'muted'}>{status.message}</span>}
        {missing.length > 0 ? (
          <span className="field__error">
            Needs {missing.join(', ')}. Install with: <code>sudo apt install {missing.join(' ')}</code>
          </span>
        ) : (
          <span className="muted">ffmpeg and PocketSphinx found.</span>
        )}
        {status && (status.state === 'stopped' || status.state === 'failed') && (
          <Button size="sm" onClick={() => void start()}>
            {status.state === 'failed' ? 'Try starting it again' : 'Start it now'}
          </Button>
        )}
      </dd>
    </>
  );
}

export function SettingsScreen() {
  const settings = useSettings((s) => s.settings);
  const update = useSettings((s) => s.update);
  const error = useSettings((s) => s.error);
  const info = useApp((s) => s.info);

  return (
    <div className="page">
      <header className="page__header">
        <h1>Settings</h1>
      </header>
      {error && (
        <p role="alert" className="banner banner--error">
          {error}
        </p>
      )}
      <ServiceSection />
      <KeySection />
      <DefaultsSection />
      <WebhookSection />
      <LibrarySection />
      <section className="card" aria-labelledby="theme-title">
        <h2 id="theme-title">Appearance</h2>
        <div role="radiogroup" aria-labelledby="theme-title" className="segmented">
          {themes.map((t) => (
            <label key={t.value} className="segmented__item">
              <input type="radio" name="theme" value={t.value} checked={settings.theme === t.value} onChange={() => void update({ theme: t.value })} />
              <span>{t.label}</span>
            </label>
          ))}
        </div>
      </section>
      <section className="card" aria-labelledby="about-title">
        <h2 id="about-title">About</h2>
        {info ? (
          <dl className="facts">
            <dt>Version</dt>
            <dd>
              {info.name} {info.version}
            </dd>
            <dt>Running as</dt>
            <dd>{info.mode === 'electron' ? 'Desktop app' : 'Host mode (in your browser)'}</dd>
            <dt>Platform</dt>
            <dd>{info.platform}</dd>
            <dt>Node</dt>
            <dd>{info.versions.node}</dd>
            {info.versions.electron && (
              <>
                <dt>Electron</dt>
                <dd>{info.versions.electron}</dd>
              </>
            )}
            {info.versions.chrome && (
              <>
                <dt>Chromium</dt>
                <dd>{info.versions.chrome}</dd>
              </>
            )}
            <dt>Data folder</dt>
            <dd>
              <code>{info.dataDir}</code>
            </dd>
            <EngineFacts />
          </dl>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </section>
    </div>
  );
}
