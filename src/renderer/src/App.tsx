/**
 * The app frame: navigation, the current screen, the status bar, drop overlay,
 * app-wide dialogs and toasts. Features are peers: where one screen shows
 * another feature's part (the cue editor under a transcript's header, the
 * Models card in Settings) it is composed here, and dialogs go through DialogHost.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { notConnectedShort } from './components/connectionText';
import { Icon, type IconName } from './components/Icon';
import { regionLabels } from './components/labels';
import { Toasts } from './components/Toasts';
import { useTheme } from './components/useTheme';
import { DialogHost } from './DialogHost';
import { DropOverlay } from './features/library/DropOverlay';
import { DownloadsStatus } from './features/models/DownloadsStatus';
import { FirstRunOffer } from './features/models/FirstRunOffer';
import { LibraryScreen } from './features/library/LibraryScreen';
import { TranscriptScreen, type SubtitlesEditor } from './features/transcript/TranscriptScreen';
import { useApp, type Screen } from './stores/app';
import { useEngine } from './stores/localEngine';
import { useIntake } from './stores/intake';
import { isFinal, useJobs } from './stores/jobs';
import { useKeys } from './stores/keys';
import { useSettings } from './stores/settings';
import { useToasts } from './stores/toasts';

const nav: Array<{ id: Screen; label: string; icon: IconName }> = [
  { id: 'library', label: 'Library', icon: 'library' },
  { id: 'captions', label: 'Live captions', icon: 'captions' },
  { id: 'chat', label: 'Chat', icon: 'chat' },
  { id: 'people', label: 'People', icon: 'mic' },
  { id: 'models', label: 'Models', icon: 'cpu' },
  { id: 'settings', label: 'Settings', icon: 'settings' },
];

// The library is what a start shows, and a transcript opens from it; the other screens (and what only
// they use: markdown, the settings, live captions, most of the shared schemas) are chunks of their own,
// loaded when first shown (issue 29: cold start). Pointing at or focusing a screen's button starts the
// load, so it is usually there by the click; nothing is loaded behind the user's back while they work.
const loaders: Partial<Record<Screen, () => Promise<{ default: ComponentType }>>> = {
  captions: () => import('./features/captions/CaptionsScreen').then((m) => ({ default: m.CaptionsScreen })),
  chat: () => import('./features/chat/ChatScreen').then((m) => ({ default: m.ChatScreen })),
  people: () => import('./features/people/PeopleScreen').then((m) => ({ default: m.PeopleScreen })),
  // Settings shows the Models feature's card (its pickers and the way to the Models screen).
  settings: () =>
    Promise.all([import('./features/settings/SettingsScreen'), import('./features/models/ModelsSection')]).then(([s, m]) => ({
      default: () => <s.SettingsScreen models={<m.ModelsSection />} />,
    })),
  models: () => import('./features/models/ModelsScreen').then((m) => ({ default: m.ModelsScreen })),
};

// The Subtitles screen: the transcript's header over the cue editor, loaded when first asked for (its waveform
// and most of the shared schemas, which opening a transcript does not need: issue 29).
const CueEditor: SubtitlesEditor = lazy(() => import('./features/subtitles/SubtitlesView').then((m) => ({ default: m.SubtitlesView })));

/** The transcript and its Subtitles screen are one component, so switching between them keeps the header (and its focus). */
function Reading() {
  const subtitles = useApp((s) => s.screen === 'subtitles');
  return <TranscriptScreen editor={subtitles ? CueEditor : null} />;
}

const screens: Record<Screen, ComponentType> = {
  library: LibraryScreen,
  transcript: Reading,
  subtitles: Reading,
  captions: lazy(() => preload('captions')),
  chat: lazy(() => preload('chat')),
  people: lazy(() => preload('people')),
  settings: lazy(() => preload('settings')),
  models: lazy(() => preload('models')),
};

const loading = new Map<Screen, Promise<{ default: ComponentType }>>();
/** A lazy screen's module, loaded once (a failed load is tried again next time). */
function preload(screen: Screen): Promise<{ default: ComponentType }> {
  let p = loading.get(screen);
  const load = loaders[screen];
  if (!p && load) {
    p = load();
    p.catch(() => loading.delete(screen));
    loading.set(screen, p);
  }
  return p ?? Promise.resolve({ default: screens[screen] });
}

export function App() {
  const screen = useApp((s) => s.screen);
  const setScreen = useApp((s) => s.setScreen);
  // Until main answers, the cached choice: the initial 'system' would flash the wrong theme.
  const theme = useSettings((s) => (s.loaded ? s.settings.theme : null));
  useTheme(theme);

  const Current = screens[screen];
  const current = screen === 'transcript' || screen === 'subtitles' ? 'library' : screen;
  return (
    <div className="frame">
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <img src="./favicon.svg" alt="" width={24} height={24} />
          <span>Verbatim</span>
        </div>
        <ul className="nav">
          {nav.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className="nav__item"
                aria-current={current === item.id ? 'page' : undefined}
                onClick={() => setScreen(item.id)}
                onPointerEnter={() => void preload(item.id)}
                onFocus={() => void preload(item.id)}
              >
                <Icon name={item.icon} />
                <span>{item.label}</span>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <main className="content" id="content" tabIndex={-1}>
        {/* The first-run model offer sits above the library, where a new user starts. */}
        {screen === 'library' && <FirstRunOffer where="library" />}
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Current />
        </Suspense>
      </main>
      <StatusBar />
      <DropOverlay />
      <DialogHost />
      <ToastStack />
    </div>
  );
}

/** The toast stack with the toasts store's list (components take data by props). */
function ToastStack() {
  const toasts = useToasts((s) => s.toasts);
  const dismiss = useToasts((s) => s.dismiss);
  const hold = useToasts((s) => s.hold);
  return <Toasts toasts={toasts} dismiss={dismiss} hold={hold} />;
}

function EngineStatus() {
  const region = useSettings((s) => s.settings.region);
  const key = useKeys((s) => s.status);
  const engine = useEngine((s) => s.status);
  const setScreen = useApp((s) => s.setScreen);
  if (region === 'local') {
    const state = engine?.state ?? 'stopped';
    const text =
      state === 'running'
        ? 'running'
        : state === 'starting'
          ? 'starting…'
          : state === 'restarting'
            ? 'restarting…'
            : state === 'failed'
              ? 'failed: see Settings › About'
              : 'starts with the first file';
    return (
      <span data-testid="engine" className={state === 'failed' ? 'statusbar__warn' : undefined}>
        <Icon name="cpu" size={13} /> Local engine{key?.present ? '' : ' (no key needed)'}: {text}
      </span>
    );
  }
  if (!key?.present && region !== 'custom') {
    return (
      <button type="button" className="statusbar__link statusbar__warn" data-testid="engine" onClick={() => setScreen('settings')}>
        <Icon name="key" size={13} /> No API key for {regionLabels[region]}: using the local engine. Add a key
      </button>
    );
  }
  return (
    <span data-testid="engine">
      <Icon name="cloud" size={13} /> {regionLabels[region]} service{key?.present ? ` · key ${key.masked ?? ''}` : ''}
      {key?.lastError ? ` · ${key.lastError.code === 'invalid_key' ? 'key rejected' : 'not verified'}` : ''}
    </span>
  );
}

function JobSummary() {
  const running =
    useJobs((s) => Object.values(s.jobs).filter((j) => !isFinal(j)).length) + useIntake((s) => s.items.filter((i) => i.state !== 'failed').length);
  const failed = useJobs((s) => Object.values(s.jobs).filter((j) => j.status === 'error').length);
  if (!running && !failed) return null;
  return (
    <span data-testid="job-summary">
      {running > 0 && `${running} in progress`}
      {running > 0 && failed > 0 && ' · '}
      {failed > 0 && <span className="statusbar__error">{failed} failed</span>}
    </span>
  );
}

function StatusBar() {
  const info = useApp((s) => s.info);
  const connection = useApp((s) => s.connection);
  const region = useSettings((s) => s.settings.region);
  const mode = info ? (info.mode === 'electron' ? 'Desktop' : 'Host mode') : null;
  const missing = info?.missingEnginePackages ?? [];
  // Only the job summary is a live region: announcing the whole bar on every engine tick was noise.
  return (
    <footer className="statusbar">
      <span className={`pill pill--${connection}`} data-testid="connection">
        <span className="pill__dot" aria-hidden="true" />
        {connection === 'open' ? 'Connected' : connection === 'closed' ? notConnectedShort : connection === 'reconnecting' ? 'Reconnecting…' : 'Connecting…'}
      </span>
      {mode && <span data-testid="mode">{mode}</span>}
      <span data-testid="region">Region: {regionLabels[region]}</span>
      <EngineStatus />
      <DownloadsStatus />
      <span role="status" aria-live="polite">
        <JobSummary />
      </span>
      {missing.length > 0 && <span className="statusbar__warn statusbar__end">Local engine needs: {missing.join(', ')}</span>}
    </footer>
  );
}
