/** The captions overlay taking the keyboard on its shortcut, over the few window calls that needs (so it is tested without Electron). */

/** What taking the keyboard needs of the overlay's window; Electron's BrowserWindow has each. */
export interface KeyableWindow {
  setIgnoreMouseEvents(ignore: boolean, options?: { forward?: boolean }): void;
  show(): void;
  focus(): void;
  isDestroyed(): boolean;
  once(event: 'blur', listener: () => void): unknown;
}

/**
 * Shown and given the keyboard: the captions take the arrow keys, End and Escape.
 * Clicks are taken too while it has focus (a click-through window would hand them to
 * the window below), and pass through again, if set so, once it loses focus.
 */
export function focusOverlayForKeys(win: KeyableWindow, clickThrough: boolean): void {
  win.setIgnoreMouseEvents(false);
  win.show();
  win.focus();
  // forward: the mouse still reaches the caption's own controls when hovered, as setClickThrough leaves it.
  if (clickThrough) win.once('blur', () => !win.isDestroyed() && win.setIgnoreMouseEvents(true, { forward: true }));
}
