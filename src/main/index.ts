/**
 * Electron lifecycle and wiring. Everything with logic lives in core.ts and
 * services/; this file maps Electron's IPC onto the contract's router.
 */
import { pathToFileURL } from 'node:url';
import { app, ipcMain, net, protocol, session, type WebContents } from 'electron';
import { createCore, type Core } from './core';
import { createElectronPlatform } from './platform/electron';
import { isChannel } from '../shared/ipc';
import { CONTENT_SECURITY_POLICY } from './security';
import { createLibraryWindow, isOwnUrl } from './windows/library';

let core: Core | undefined;

if (!app.requestSingleInstanceLock()) app.quit();

// The library's audio reaches <audio> through our own scheme (streamed, seekable).
protocol.registerSchemesAsPrivileged([{ scheme: 'verbatim-media', privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true } }]);

app.whenReady().then(() => {
  const platform = createElectronPlatform(app.getPath('userData'));
  core = createCore(platform, (s) => s.kind === 'electron' && isOwnUrl(s.frameUrl));
  const lib = core.library;
  protocol.handle('verbatim-media', (request) => {
    const url = new URL(request.url);
    const path = lib.audio.path(url.hostname, url.searchParams.get('redacted') === '1' ? 'redacted' : 'original');
    if (!path) return new Response('No audio for this recording', { status: 404 });
    return net.fetch(pathToFileURL(path).toString(), { headers: request.headers });
  });
  core.setMediaUrl((id, redacted) => `verbatim-media://${id}/${redacted ? '?redacted=1' : ''}`);

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
  // The preload reports each file the user dropped or picked (webUtils.getPathForFile); only our own page may.
  ipcMain.on('verbatim:picked', (event, path: unknown) => {
    if (isOwnUrl(event.senderFrame?.url ?? '') && typeof path === 'string') core?.picked.add(path);
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
