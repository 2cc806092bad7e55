/** The whole page of an overlay window (desktop overlay, browser pop-out): the captions and nothing else. */
import { useEffect } from 'react';
import { transport } from '../../bridge';
import { CaptionsOverlay } from './CaptionsOverlay';

export function OverlayApp() {
  useEffect(() => {
    document.title = 'Verbatim captions';
    document.body.classList.add('cap-overlay-body');
  }, []);
  return (
    <main className="cap-overlay-page">
      <h1 className="visually-hidden">Live captions</h1>
      <CaptionsOverlay draggable={transport === 'electron'} />
    </main>
  );
}
