import { useId } from 'react';
import { regionLabels, type Region, type Theme } from '../../../../shared/settings';
import { useApp } from '../../stores/app';
import { useSettings } from '../../stores/settings';

const themes: Array<{ value: Theme; label: string }> = [
  { value: 'system', label: 'Match system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

const regionHelp: Record<Region, string> = {
  us: 'AssemblyAI, United States data centre.',
  eu: 'AssemblyAI, European Union data centre; your audio stays in the EU.',
  local: 'The engine built into Verbatim, on this computer. No key, no network, English only.',
  custom: 'Your own AssemblyAI-compatible service at the addresses below.',
};

export function SettingsScreen() {
  const { settings, update, error } = useSettings();
  const info = useApp((s) => s.info);
  const themeId = useId();
  const regionId = useId();

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

      <section className="card" aria-labelledby={themeId}>
        <h2 id={themeId}>Appearance</h2>
        <div role="radiogroup" aria-labelledby={themeId} className="segmented">
          {themes.map((t) => (
            <label key={t.value} className="segmented__item">
              <input
                type="radio"
                name="theme"
                value={t.value}
                checked={settings.theme === t.value}
                onChange={() => void update({ theme: t.value })}
              />
              <span>{t.label}</span>
            </label>
          ))}
        </div>
      </section>

      <section className="card" aria-labelledby={regionId}>
        <h2 id={regionId}>Transcription service</h2>
        <div className="field">
          <label htmlFor="region">Region</label>
          <select id="region" value={settings.region} onChange={(e) => void update({ region: e.target.value as Region })}>
            {(Object.keys(regionLabels) as Region[]).map((r) => (
              <option key={r} value={r}>
                {regionLabels[r]}
              </option>
            ))}
          </select>
          <p className="field__help">{regionHelp[settings.region]}</p>
        </div>
      </section>

      <section className="card" aria-labelledby="about-title">
        <h2 id="about-title">About</h2>
        {info ? (
          <dl className="facts">
            <dt>Version</dt>
            <dd>{info.version}</dd>
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
            <dt>Data folder</dt>
            <dd>
              <code>{info.dataDir}</code>
            </dd>
            <dt>Local engine</dt>
            <dd>
              {info.missingEnginePackages.length === 0
                ? 'Ready: ffmpeg and PocketSphinx found.'
                : `Needs ${info.missingEnginePackages.join(', ')}. Install with: sudo apt install ${info.missingEnginePackages.join(' ')}`}
            </dd>
          </dl>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </section>
    </div>
  );
}
