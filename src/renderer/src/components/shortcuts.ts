/** When a single-key shortcut (Space, J/K/L, arrows, E) may act: never behind a dialog or while the user types. */

export function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  return el.isContentEditable || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT';
}

/**
 * True when a window-level key handler must leave the key alone. A modal
 * <dialog> keeps focus inside but its keys still bubble to window, so K would
 * start playback behind the Export dialog without the dialog check.
 */
export function shortcutBlocked(e: KeyboardEvent): boolean {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return true;
  if (typingIn(e.target)) return true;
  const el = e.target as Element | null;
  if (el && typeof el.closest === 'function' && el.closest('dialog')) return true;
  return document.querySelector('dialog[open]') !== null;
}
