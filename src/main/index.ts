/**
 * Electron lifecycle and wiring. Everything with logic lives in core.ts and
 * services/; this file maps Electron's IPC onto the contract's router.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { app, desktopCapturer, globalShortcut, ipcMain, Menu, nativeImage, net, powerMonitor, protocol, session, Tray, type WebContents } from 'electron';
import { createCore, type Core } from './core';
import { createElectronPlatform } from './platform/electron';
import { isChannel } from '../shared/ipc';
import { CONTENT_SECURITY_POLICY } from '../shared/csp';
import { parseRecordingLink } from '../shared/recording-link';
import { createLibraryWindow, isOwnUrl } from './windows/library';
import { OverlayWindow } from './windows/overlay';

/** Shows or hides the captions overlay from anywhere. */
const OVERLAY_SHORTCUT = 'CommandOrControl+Shift+L';
/** Gives the captions overlay the keyboard: arrow keys go back over the session, End returns to live. */
const OVERLAY_FOCUS_SHORTCUT = 'CommandOrControl+Shift+K';
let tray: Tray | null = null;

let core: Core | undefined;

if (!app.requestSingleInstanceLock()) app.quit();

// verbatim://recording/ID?t=SECONDS links (Markdown notes, MCP citations) open the recording at that moment: on
// Windows and Linux the link arrives as an argument (of this start, or of a second start, which hands it over);
// on macOS as open-url. Until the window is up it waits.
let pendingLink: string | null = process.argv.find((a) => a.startsWith('verbatim://')) ?? null;
let openLink = (link: string) => void (pendingLink = link);
app.setAsDefaultProtocolClient('verbatim');
app.on('open-url', (event, url) => {
  event.preventDefault();
  openLink(url);
});
app.on('second-instance', (_event, argv) => {
  const link = argv.find((a) => a.startsWith('verbatim://'));
  if (link) openLink(link);
});

// macOS 15 ships ScreenCaptureKit's system-audio loopback switched off in Chromium; this is its documented override
// (getDisplayMedia's 'loopback' audio below stays silent without it). Must be set before the app is ready.
if (process.platform === 'darwin') app.commandLine.appendSwitch('enable-features', 'MacSckSystemAudioLoopbackOverride');

// The library's audio reaches <audio> through our own scheme (streamed, seekable).
protocol.registerSchemesAsPrivileged([{ scheme: 'verbatim-media', privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true } }]);

app
  .whenReady()
  .then(() => {
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
    // Only the microphone (and system audio for live captions), only for our own page.
    session.defaultSession.setPermissionRequestHandler((wc, permission, callback, details) => {
      const types = (details as { mediaTypes?: string[] }).mediaTypes ?? [];
      callback(permission === 'media' && isOwnUrl(wc.getURL()) && types.every((t) => t === 'audio'));
    });
    // System audio for live captions: getDisplayMedia answered with the screen's loopback audio (Windows, macOS).
    session.defaultSession.setDisplayMediaRequestHandler((request, callback) => {
      if (!isOwnUrl(request.frame?.url ?? '')) return callback({});
      // Linux has no loopback: its "Monitor of …" inputs carry system audio instead (the renderer picks them).
      if (process.platform === 'linux') return callback({});
      desktopCapturer
        .getSources({ types: ['screen'] })
        .then((sources) => {
          const first = sources[0];
          if (!first) return callback({});
          callback({ video: first, audio: 'loopback' });
        })
        // Unanswered, the page's getDisplayMedia would wait forever; refused, it says system audio is unavailable.
        .catch(() => callback({}));
    });
    session.defaultSession.setPermissionCheckHandler((wc, permission) => permission === 'media' && wc !== null && isOwnUrl(wc.getURL()));

    ipcMain.handle('verbatim:invoke', async (event, channel: unknown, input: unknown) => {
      const frameUrl = event.senderFrame?.url ?? '';
      return core?.router.dispatch(isChannel(channel) ? channel : String(channel), input, { sender: { kind: 'electron', frameUrl } });
    });
    ipcMain.on('verbatim:binary', (event, data: unknown) => {
      if (!isOwnUrl(event.senderFrame?.url ?? '')) return;
      if (data instanceof Uint8Array) core?.captions.frame(data);
      else if (data instanceof ArrayBuffer) core?.captions.frame(new Uint8Array(data));
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
    openLink = (link) => {
      const at = parseRecordingLink(link);
      if (!at) return;
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
      core?.router.emit('app.openLink', at);
    };
    win.webContents.once('did-finish-load', () => {
      if (pendingLink) openLink(pendingLink);
      pendingLink = null;
    });
    win.on('closed', () => targets.delete(win.webContents));

    const overlay = new OverlayWindow(join(app.getPath('userData'), 'overlay-bounds.json'), (w) => {
      const wc = w.webContents;
      targets.add(wc);
      w.on('closed', () => targets.delete(wc));
    });
    const setOverlay = (show?: boolean) => {
      const visible = overlay.toggle(show);
      overlay.setClickThrough(core?.settings.get().captions.overlay.clickThrough ?? false);
      return visible;
    };
    core.captions.setOverlayController(setOverlay);
    core.settings.onChange((s) => overlay.setClickThrough(s.captions.overlay.clickThrough));
    // Another app may own the shortcut: the tray menu still toggles the overlay.
    if (!globalShortcut.register(OVERLAY_SHORTCUT, () => setOverlay()))
      console.warn(`Verbatim: the shortcut ${OVERLAY_SHORTCUT} is taken by another app; use the tray menu to show the captions overlay.`);
    if (!globalShortcut.register(OVERLAY_FOCUS_SHORTCUT, () => overlay.focusForKeys(core?.settings.get().captions.overlay.clickThrough ?? false)))
      console.warn(`Verbatim: the shortcut ${OVERLAY_FOCUS_SHORTCUT} is taken by another app; click the captions overlay to use its keys.`);
    tray = new Tray(nativeImage.createFromPath(join(import.meta.dirname, '../../resources/tray.png')));
    tray.setToolTip('Verbatim');
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Show or hide captions overlay', accelerator: OVERLAY_SHORTCUT, click: () => setOverlay() },
        { label: 'Open Verbatim', click: () => win.show() },
        { type: 'separator' },
        { label: 'Quit', role: 'quit' },
      ]),
    );
  })
  .catch((err: unknown) => {
    console.error('Verbatim failed to start', err);
    app.exit(1);
  });

app.on('web-contents-created', (_e, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

app.on('window-all-closed', () => app.quit());

app.on('will-quit', () => globalShortcut.unregisterAll());

// Quitting waits for the services to close, so a live session still running is stopped and saved whole
// (its last turns and recording) before the process ends; the second before-quit, from app.quit() below, goes through.
let closing: Promise<void> | null = null;
app.on('before-quit', (event) => {
  tray?.destroy();
  if (!core || closing) return;
  event.preventDefault();
  closing = core.dispose().catch((e: unknown) => console.error('Verbatim: closing the services failed', e));
  void closing.finally(() => app.quit());
});

// The computer going to sleep ends a live session cleanly (saved, as Stop does) rather than leaving it to the
// reconnect logic when the network comes back hours later.
app.whenReady().then(
  () => powerMonitor.on('suspend', () => void core?.captions.dispose()),
  () => undefined,
);
