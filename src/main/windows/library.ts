/**
 * The main window. Security settings per DESIGN.md and the Electron security
 * checklist: isolated, sandboxed, no Node in the renderer, no navigation away
 * from our page, no new windows.
 */
import { BrowserWindow, shell } from 'electron';
import { join } from 'node:path';
import { isOwnUrlFor, safeExternalUrl } from './own-url';

export function rendererEntry(): { url?: string; file?: string } {
  const dev = process.env.ELECTRON_RENDERER_URL;
  return dev ? { url: dev } : { file: join(import.meta.dirname, '../renderer/index.html') };
}

/** Navigation, the IPC router's trusted sender and the media permission all ask this: see isOwnUrlFor. */
export function isOwnUrl(target: string): boolean {
  return isOwnUrlFor(target, rendererEntry());
}

export function createLibraryWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 880,
    minHeight: 560,
    show: false,
    title: 'Verbatim',
    backgroundColor: '#101114',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      // A middle click must not open a link the page did not mean to (Electronegativity AUXCLICK_JS_CHECK): nothing here uses auxclick.
      disableBlinkFeatures: 'Auxclick',
      webSecurity: true,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.on('will-navigate', (event, url) => {
    if (!isOwnUrl(url)) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    const external = safeExternalUrl(url);
    if (external) void shell.openExternal(external);
    return { action: 'deny' };
  });
  const entry = rendererEntry();
  if (entry.url) void win.loadURL(entry.url);
  else void win.loadFile(entry.file as string);
  return win;
}
