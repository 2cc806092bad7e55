import { useEffect, type ReactElement } from 'react';
import { regionLabels } from '../../shared/settings';
import { Icon, type IconName } from './components/Icon';
import { useTheme } from './components/useTheme';
import { CaptionsScreen } from './features/captions/CaptionsScreen';
import { ChatScreen } from './features/chat/ChatScreen';
import { LibraryScreen } from './features/library/LibraryScreen';
import { SettingsScreen } from './features/settings/SettingsScreen';
import { useApp, type Screen } from './stores/app';
import { useSettings } from './stores/settings';

const nav: Array<{ id: Screen; label: string; icon: IconName }> = [
  { id: 'library', label: 'Library', icon: 'library' },
  { id: 'captions', label: 'Live captions', icon: 'captions' },
  { id: 'chat', label: 'Chat', icon: 'chat' },
  { id: 'settings', label: 'Settings', icon: 'settings' },
];

const screens: Record<Screen, () => ReactElement> = {
  library: LibraryScreen,
  captions: CaptionsScreen,
  chat: ChatScreen,
  settings: SettingsScreen,
};

export function App() {
  const { screen, setScreen } = useApp();
  const settings = useSettings((s) => s.settings);
  const load = useSettings((s) => s.load);
  useTheme(settings.theme);

  useEffect(() => {
    void load();
  }, [load]);

  const Current = screens[screen];
  return (
    <div className="frame">
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
                aria-current={screen === item.id ? 'page' : undefined}
                onClick={() => setScreen(item.id)}
              >
                <Icon name={item.icon} />
                <span>{item.label}</span>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <main className="content" id="content">
        <Current />
      </main>
      <StatusBar region={regionLabels[settings.region]} />
    </div>
  );
}

function StatusBar({ region }: { region: string }) {
  const info = useApp((s) => s.info);
  const connection = useApp((s) => s.connection);
  const mode = info ? (info.mode === 'electron' ? 'Desktop' : 'Host mode') : '…';
  const missing = info?.missingEnginePackages ?? [];
  return (
    <footer className="statusbar" role="status" aria-live="polite">
      <span className={`pill pill--${connection}`} data-testid="connection">
        <span className="pill__dot" aria-hidden="true" />
        {connection === 'open'
          ? 'Connected'
          : connection === 'closed'
            ? 'Not connected: open the link that `npm run serve` printed'
            : connection === 'reconnecting'
              ? 'Reconnecting…'
              : 'Connecting…'}
      </span>
      <span data-testid="mode">{mode}</span>
      <span data-testid="region">Region: {region}</span>
      {missing.length > 0 && (
        <span className="statusbar__warn">Local engine needs: {missing.join(', ')}</span>
      )}
    </footer>
  );
}
