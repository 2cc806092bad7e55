/** The whole page of an overlay window (desktop overlay, browser pop-out): the captions and nothing else. */
import { useEffect } from 'react';
import { transport } from '../../bridge';
import { useTheme } from '../../components/useTheme';
import { useSettings } from '../../stores/settings';
import { CaptionsOverlay } from './CaptionsOverlay';

export function OverlayApp() {
  // The same theme as the main window, following it (and the OS) while open: its notice and focus ring use the theme's colours.
  const theme = useSettings((s) => (s.loaded ? s.settings.theme : null));
  useTheme(theme);
  useEffect(() => {
    document.title = 'Verbatim captions';
    document.body.classList.add('cap-overlay-body');
    // The desktop overlay takes focus on its shortcut: the keys go to the captions (back, forward, live) at once.
    const onFocus = () => document.querySelector<HTMLElement>('[data-testid="captions-overlay"]')?.focus();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, []);
  return (
    <main className="cap-overlay-page">
      <h1 className="visually-hidden">Live captions</h1>
      <CaptionsOverlay draggable={transport === 'electron'} />
    </main>
  );
}
