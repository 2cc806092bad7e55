/**
 * Opens the captions overlay from the page. Desktop: main's always-on-top
 * window. Browser: Document Picture-in-Picture (Chromium keeps it above other
 * windows), else a small pop-out window. Each renders CaptionsOverlay.
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { transport } from '../../bridge';
import { useCaptions } from '../../stores/captions';
import { CaptionsOverlay } from './CaptionsOverlay';

interface DocumentPictureInPicture {
  requestWindow(opts: { width: number; height: number }): Promise<Window>;
  window: Window | null;
}

declare global {
  interface Window {
    documentPictureInPicture?: DocumentPictureInPicture;
  }
}

export type OverlayHandle = { kind: 'desktop' } | { kind: 'pip'; window: Window } | { kind: 'popout'; window: Window };

/** Copies the page's styles into another document (PiP starts empty) and keeps its theme in step with the page's; returns the stop. */
function copyStyles(into: Document): () => void {
  for (const node of document.querySelectorAll('link[rel="stylesheet"], style')) into.head.append(node.cloneNode(true));
  into.documentElement.lang = document.documentElement.lang || 'en';
  const sync = () => {
    into.documentElement.dataset.theme = document.documentElement.dataset.theme ?? '';
    into.documentElement.style.colorScheme = document.documentElement.style.colorScheme;
  };
  sync();
  const watch = new MutationObserver(sync);
  watch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'style'] });
  return () => watch.disconnect();
}

export async function openOverlay(): Promise<OverlayHandle> {
  if (transport === 'electron') {
    await useCaptions.getState().showDesktopOverlay();
    return { kind: 'desktop' };
  }
  const pip = window.documentPictureInPicture;
  if (pip) {
    try {
      const w = await pip.requestWindow({ width: 720, height: 180 });
      const stopTheme = copyStyles(w.document);
      w.document.title = 'Verbatim captions';
      w.document.body.className = 'cap-overlay-body';
      // Rendered from this page's React and store: the PiP window has no script of its own.
      const root = createRoot(w.document.body);
      root.render(createElement(CaptionsOverlay));
      w.addEventListener(
        'pagehide',
        () => {
          stopTheme();
          root.unmount();
        },
        { once: true },
      );
      return { kind: 'pip', window: w };
    } catch {
      // Refused (no user gesture, or disabled): the pop-out below.
    }
  }
  const url = new URL(window.location.href);
  url.hash = 'overlay';
  const w = window.open(url.toString(), 'verbatim-captions', 'popup,width=720,height=180');
  if (!w) throw new Error('The browser blocked the captions window. Allow pop-ups for this page and try again.');
  return { kind: 'popout', window: w };
}
