/** The page's colour theme: the user's choice, or the OS's when the choice is "system". */
import { useEffect, useSyncExternalStore } from 'react';
import type { Theme } from '../../../shared/settings';

const query = '(prefers-color-scheme: dark)';
const CACHE = 'verbatim.theme';

function subscribe(cb: () => void): () => void {
  const mq = window.matchMedia(query);
  mq.addEventListener('change', cb);
  return () => mq.removeEventListener('change', cb);
}

/** The last theme main told us, so the first paint (before `settings.get` answers) is already in it. */
export function cachedTheme(): Theme {
  try {
    const v = localStorage.getItem(CACHE);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

export function resolveTheme(theme: Theme): 'light' | 'dark' {
  return theme === 'system' ? (window.matchMedia(query).matches ? 'dark' : 'light') : theme;
}

/** Sets <html data-theme> before React renders: without it a dark choice flashed light for ~400 ms. */
export function applyCachedTheme(): void {
  const resolved = resolveTheme(cachedTheme());
  document.documentElement.dataset.theme = resolved;
  document.documentElement.style.colorScheme = resolved;
}

/** Applies the chosen theme (null: not known yet, use the cached one) to <html data-theme>, following the OS for "system". */
export function useTheme(chosen: Theme | null): 'light' | 'dark' {
  const osDark = useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
  const theme = chosen ?? cachedTheme();
  const resolved = theme === 'system' ? (osDark ? 'dark' : 'light') : theme;
  useEffect(() => {
    document.documentElement.dataset.theme = resolved;
    document.documentElement.style.colorScheme = resolved;
  }, [resolved]);
  useEffect(() => {
    if (!chosen) return;
    try {
      localStorage.setItem(CACHE, chosen);
    } catch {
      // Storage refused (private window): the flash comes back, nothing else breaks.
    }
  }, [chosen]);
  return resolved;
}
