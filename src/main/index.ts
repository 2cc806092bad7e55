/**
 * Electron lifecycle and wiring. Everything with logic lives in core.ts and
 * services/; this file maps Electron's IPC onto the contract's router.
 */
import { app, ipcMain, session, type WebContents } from 'electron';
import { createCore, type Core } from './core';
import { createElectronPlatform } from './platform/electron';
import { isChannel } from '../shared/ipc';
import { CONTENT_SECURITY_POLICY } from './security';
import { createLibraryWindow, isOwnUrl } from './windows/library';

let core: Core | undefined;

if (!app.requestSingleInstanceLock()) app.quit();

app.whenReady().then(() => {
  const platform = createElectronPlatform(app.getPath('userData'));
  core = createCore(platform, (s) => s.kind === 'electron' && isOwnUrl(s.frameUrl));

  // Strict CSP on every response of our own pages.
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  // Only the microphone, only for our own page.
  session.defaultSession.setPermissionRequestHandler((wc, permission, callback, details) => {
    callback(permission === 'media' && isOwnUrl(wc.getURL()) && (details as { mediaTypes?: string[] }).mediaTypes?.every((t) => t === 'audio') === true);
  });
  session.defaultSession.setPermissionCheckHandler((wc, permission) => permission === 'media' && wc !== null && isOwnUrl(wc.getURL()));

  ipcMain.handle('verbatim:invoke', async (event, channel: unknown, input: unknown) => {
    const frameUrl = event.senderFrame?.url ?? '';
    return core?.router.dispatch(isChannel(channel) ? channel : String(channel), input, { sender: { kind: 'electron', frameUrl } });
  });
  const targets = new Set<WebContents>();
  core.router.subscribe((name, payload) => {
    for (const wc of targets) if (!wc.isDestroyed()) wc.send('verbatim:event', name, payload);
  });

  const win = createLibraryWindow();
  targets.add(win.webContents);
  win.on('closed', () => targets.delete(win.webContents));
}).catch((err: unknown) => {
  console.error('Verbatim failed to start', err);
  app.exit(1);
});

app.on('web-contents-created', (_e, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

app.on('window-all-closed', () => app.quit());

app.on('before-quit', () => {
  void core?.dispose();
});
