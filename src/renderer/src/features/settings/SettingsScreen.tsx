/** Settings: service and key, defaults for new jobs, webhook, library, appearance, about. */
import { useState, type ReactNode } from 'react';
import type { Region, Theme } from '../../../../shared/settings';
import { regionLabels } from '../../components/labels';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { Switch } from '../../components/Switch';
import { useApp } from '../../stores/app';
import { useEngine } from '../../stores/localEngine';
import { useSettings } from '../../stores/settings';
import { BackupSection } from './BackupSection';
import { DefaultsSection } from './DefaultsSection';
import { KeySection } from './KeySection';
import { NotesFolderSection } from './NotesFolderSection';
import { StorageSection } from './StorageSection';
import { VocabularySection } from './VocabularySection';
import { WatchFoldersSection } from './WatchFoldersSection';

const themes: Array<{ value: Theme; label: string }> = [
  { value: 'system', label: 'Match system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

const regionHelp: Record<Region, string> = {
  us: 'AssemblyAI, United States data centre. Needs an API key.',
  eu: 'AssemblyAI, European Union data centre; your audio stays in the EU. Needs an API key.',
  local: 'The engine built into Verbatim, on this computer. No key, no network; it speaks the languages of the model in use (Models).',
  custom: 'Your own AssemblyAI-compatible service at the addresses below.',
};

/** Checks an address before it goes to main, so the user reads why in the field's own words. */
type Check = (v: string) => string | null;
/** An empty value (not set) or a URL with one of `schemes`; else the reason, naming them. */
function addressCheck(what: string, schemes: [string, string]): Check {
  return (v) => {
    if (v === '') return null;
    try {
      if (schemes.includes(new URL(v).protocol.slice(0, -1))) return null;
    } catch {
      // Not a URL at all: same answer.
    }
    return `That is not a ${what}; it must start with ${schemes[0]}:// or ${schemes[1]}://`;
  };
}
const webAddress = addressCheck('web address', ['https', 'http']);
const streamingAddress = addressCheck('streaming address', ['wss', 'ws']);

/**
 * A text setting saved when the field loses focus (not on every keystroke).
 * The draft is kept until main accepts it: a refused value stays in the field
 * with the reason under it, so the user can correct it rather than retype it.
 */
function TextSetting({
  id,
  label,
  value,
  onSave,
  check,
  type = 'text',
  placeholder,
  help,
}: {
  id: string;
  label: string;
  value: string;
  onSave(v: string): Promise<boolean>;
  check?: Check;
  type?: string;
  placeholder?: string;
  help?: string;
}) {
  // null: show the saved value (it may change from elsewhere); a string: what the user is typing.
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = draft ?? value;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={shown}
        placeholder={placeholder}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={error || help ? `${id}-note` : undefined}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={async () => {
          if (draft === null) return;
          const v = draft.trim();
          const problem = check?.(v) ?? null;
          if (problem) return setError(problem);
          if (v === value) {
            setError(null);
            return setDraft(null);
          }
          if (await onSave(v)) {
            setError(null);
            setDraft(null);
          } else setError('Verbatim could not save this value. Check it and try again.');
        }}
      />
      {error ? (
        <p id={`${id}-note`} className="field__error" role="alert">
          {error}
        </p>
      ) : (
        help && (
          <p id={`${id}-note`} className="field__help">
            {help}
          </p>
        )
      )}
    </div>
  );
}

/**
 * A secret the user can set or forget but never read back: main seals it and
 * answers only whether one is saved. Leaving the field empty keeps the saved one.
 */
function SecretSetting({ id, label, saved, onSave }: { id: string; label: string; saved: boolean; onSave(v: string): Promise<boolean> }) {
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = async (v: string) => {
    if (await onSave(v)) {
      setDraft('');
      setError(null);
    } else setError('Verbatim could not save this value. Try again.');
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="keyform__row">
        <input
          id={id}
          type="password"
          value={draft}
          placeholder={saved ? 'Saved: type to replace it' : ''}
          autoComplete="new-password"
          aria-describedby={`${id}-note`}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => void (draft.trim() && save(draft.trim()))}
        />
        {saved && (
          <Button size="sm" variant="ghost" onClick={() => void save('')}>
            Forget
          </Button>
        )}
      </div>
      <p id={`${id}-note`} className={error ? 'field__error' : 'field__help'} role={error ? 'alert' : undefined}>
        {error ?? (saved ? 'Saved, encrypted on this computer. It is never shown again.' : 'Kept encrypted on this computer, never shown again.')}
      </p>
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
          <TextSetting
            id="custom-rest"
            label="REST address"
            type="url"
            placeholder="https://asr.example.org"
            value={settings.customRestUrl}
            check={webAddress}
            onSave={(v) => update({ customRestUrl: v })}
          />
          <TextSetting
            id="custom-ws"
            label="Streaming address (optional)"
            type="url"
            placeholder="wss://asr.example.org"
            value={settings.customStreamingUrl}
            check={streamingAddress}
            onSave={(v) => update({ customStreamingUrl: v })}
            help="Empty: derived from the REST address."
          />
          <TextSetting
            id="custom-gw"
            label="Gateway address (optional)"
            type="url"
            value={settings.customGatewayUrl}
            check={webAddress}
            onSave={(v) => update({ customGatewayUrl: v })}
            help="Empty: the REST address."
          />
        </div>
      )}
    </section>
  );
}

function WebhookSection() {
  const settings = useSettings((s) => s.settings);
  const update = useSettings((s) => s.update);
  return (
    // A form only to group the secret header with its fields (Chromium asks password fields to be in one); never submitted.
    <form className="card" aria-labelledby="webhook-title" onSubmit={(e) => e.preventDefault()}>
      <h2 id="webhook-title">Webhook (optional)</h2>
      {settings.region === 'local' && (
        <p className="settings-note">
          Not used while the region is Local: the local engine keeps its results on this computer. Kept for when you switch to US, EU or a custom service.
        </p>
      )}
      <p className="field__help">
        For teams whose own server also wants each result: the service calls this address when a transcript is done (US, EU or a custom service; the local
        engine's results stay on this computer). Each transcript's details show what your server answered.
      </p>
      <TextSetting
        id="webhook-url"
        label="Webhook URL"
        type="url"
        placeholder="https://example.org/hooks/transcripts"
        value={settings.webhookUrl}
        check={webAddress}
        onSave={(v) => update({ webhookUrl: v })}
      />
      <div className="grid2">
        <TextSetting
          id="webhook-h"
          label="Auth header name"
          placeholder="X-Webhook-Secret"
          value={settings.webhookAuthHeaderName}
          onSave={(v) => update({ webhookAuthHeaderName: v })}
        />
        <SecretSetting id="webhook-v" label="Auth header value" saved={settings.webhookAuthHeaderSaved} onSave={(v) => update({ webhookAuthHeaderValue: v })} />
      </div>
    </form>
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
        <p className="field__help">
          Transcripts and audio copies live here. {info?.mode === 'host' ? 'Start host mode with --data DIR to use another folder.' : ''}
        </p>
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

/** `models`: the Models card, which the Models feature draws (App puts it here, so neither feature imports the other). */
export function SettingsScreen({ models }: { models?: ReactNode }) {
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
      <VocabularySection />
      {models}
      <WebhookSection />
      <LibrarySection />
      <StorageSection />
      <WatchFoldersSection hostMode={info?.mode === 'host'} />
      <NotesFolderSection hostMode={info?.mode === 'host'} />
      <BackupSection hostMode={info?.mode === 'host'} />
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
            <EngineFacts />
          </dl>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </section>
    </div>
  );
}
