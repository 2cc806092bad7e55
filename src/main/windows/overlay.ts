/**
 * The captions overlay window: frameless, transparent, always on top at the
 * screen-saver level and on every workspace, optionally click-through. It
 * loads the same renderer with #overlay (the same caption component as the
 * panel). Its bounds are remembered per display.
 */
import { BrowserWindow, screen } from 'electron';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { isOwnUrl, rendererEntry } from './library';
import { focusOverlayForKeys } from './overlay-keys';
import { OVERLAY_MIN, parsePlacements, placeOverlay, rememberPlacement, type SavedPlacements } from './overlay-placement';

export class OverlayWindow {
  private win: BrowserWindow | null = null;

  constructor(
    private readonly stateFile: string,
    private readonly onCreated: (win: BrowserWindow) => void,
  ) {}

  private saved(): SavedPlacements {
    try {
      return parsePlacements(readFileSync(this.stateFile, 'utf8'));
    } catch {
      return {};
    }
  }

  /** Called from window events: a failed write loses only the remembered place, never throws. */
  private remember(): void {
    if (!this.win || this.win.isDestroyed()) return;
    const b = this.win.getBounds();
    try {
      writeFileSync(this.stateFile, JSON.stringify(rememberPlacement(this.saved(), screen.getDisplayMatching(b), b)));
    } catch (e) {
      console.warn(`Verbatim could not remember the overlay's place: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private create(): BrowserWindow {
    // It opens on the display the user is working on, where it was last put there.
    const bounds = placeOverlay(this.saved(), screen.getDisplayNearestPoint(screen.getCursorScreenPoint()));
    const win = new BrowserWindow({
      ...bounds,
      minWidth: OVERLAY_MIN.width,
      minHeight: OVERLAY_MIN.height,
      frame: false,
      transparent: true,
      resizable: true,
      movable: true,
      skipTaskbar: true,
      hasShadow: false,
      focusable: true,
      title: 'Verbatim captions',
      webPreferences: {
        preload: join(import.meta.dirname, '../preload/index.cjs'),
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        // A middle click must not open a link the page did not mean to (Electronegativity AUXCLICK_JS_CHECK): nothing here uses auxclick.
        disableBlinkFeatures: 'Auxclick',
        spellcheck: false,
      },
    });
    win.setAlwaysOnTop(true, 'screen-saver');
    win.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true });
    win.webContents.on('will-navigate', (event, url) => {
      if (!isOwnUrl(url)) event.preventDefault();
    });
    win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
    win.on('moved', () => this.remember());
    win.on('resized', () => this.remember());
    win.on('closed', () => (this.win = null));
    const entry = rendererEntry();
    if (entry.url) void win.loadURL(`${entry.url}#overlay`);
    else void win.loadFile(entry.file as string, { hash: 'overlay' });
    this.onCreated(win);
    return win;
  }

  /** Show, hide or toggle (no argument); answers whether it is visible now. */
  toggle(show?: boolean): boolean {
    const visible = this.win !== null && !this.win.isDestroyed() && this.win.isVisible();
    const want = show ?? !visible;
    if (want) {
      this.win ??= this.create();
      this.win.showInactive();
    } else this.win?.hide();
    return want;
  }

  /** Shown and given the keyboard (its shortcut); what that does is overlay-keys.ts's, tested there without Electron. */
  focusForKeys(clickThrough: boolean): void {
    this.win ??= this.create();
    focusOverlayForKeys(this.win, clickThrough);
  }

  /** Clicks go to the window below (the mouse still moves the caption's own controls when hovered: forward). */
  setClickThrough(on: boolean): void {
    this.win?.setIgnoreMouseEvents(on, { forward: true });
  }
}
