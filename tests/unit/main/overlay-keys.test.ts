// The captions overlay taking the keyboard on its shortcut (Ctrl+Shift+K in Electron), behind its window interface: a window with
// the state a BrowserWindow keeps (shown, focused, whether clicks pass through) and real events, since Electron cannot run here.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { focusOverlayForKeys, type KeyableWindow } from '../../../src/main/windows/overlay-keys';

class Window extends EventEmitter implements KeyableWindow {
  visible = false;
  focused = false;
  destroyed = false;
  /** What setIgnoreMouseEvents last set: clicks pass to the window below, and whether the mouse still moves over this one. */
  mouse = { ignore: false, forward: false };
  /** Each call in order, to check the window takes clicks before it takes focus. */
  readonly calls: string[] = [];

  setIgnoreMouseEvents(ignore: boolean, options?: { forward?: boolean }): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    this.mouse = { ignore, forward: options?.forward ?? false };
    this.calls.push(`mouse:${ignore}`);
  }
  show(): void {
    this.visible = true;
    this.calls.push('show');
  }
  focus(): void {
    this.focused = true;
    this.calls.push('focus');
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  blur(): void {
    this.focused = false;
    this.emit('blur');
  }
}

/** A click-through overlay as setClickThrough(true) leaves it: hidden until shown, clicks passing through. */
function clickThroughOverlay(): Window {
  const w = new Window();
  w.setIgnoreMouseEvents(true, { forward: true });
  w.calls.length = 0;
  return w;
}

describe('overlay focusForKeys', () => {
  it('shows and focuses the window, taking clicks before it takes focus', () => {
    const w = clickThroughOverlay();
    focusOverlayForKeys(w, true);
    expect(w.visible).toBe(true);
    expect(w.focused).toBe(true);
    expect(w.mouse.ignore).toBe(false);
    expect(w.calls).toEqual(['mouse:false', 'show', 'focus']);
  });

  it('with click-through on, lets clicks pass through again (the mouse still forwarded) once the window loses focus', () => {
    const w = clickThroughOverlay();
    focusOverlayForKeys(w, true);
    expect(w.mouse).toEqual({ ignore: false, forward: false });
    w.blur();
    expect(w.mouse).toEqual({ ignore: true, forward: true });
    // Only that blur: the next time it is clicked into and left, it is not set again behind the user's back.
    w.setIgnoreMouseEvents(false);
    w.blur();
    expect(w.mouse.ignore).toBe(false);
    expect(w.listenerCount('blur')).toBe(0);
  });

  it('with click-through off, keeps taking clicks after it loses focus', () => {
    const w = new Window();
    focusOverlayForKeys(w, false);
    w.blur();
    expect(w.mouse.ignore).toBe(false);
    expect(w.visible).toBe(true);
    expect(w.listenerCount('blur')).toBe(0);
  });

  it('does not touch a window closed before it lost focus', () => {
    const w = clickThroughOverlay();
    focusOverlayForKeys(w, true);
    w.destroyed = true;
    expect(() => w.blur()).not.toThrow();
    expect(w.mouse.ignore).toBe(false);
  });
});
