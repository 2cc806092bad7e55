import { useEffect, useSyncExternalStore } from 'react';
import type { Theme } from '../../../shared/settings';

const query = '(prefers-color-scheme: dark)';

function subscribe(cb: () => void): () => void {
  const mq = window.matchMedia(query);
  mq.addEventListener('change', cb);
  return () => mq.removeEventListener('change', cb);
}

/** Applies the chosen theme to <html data-theme>, following the OS for "system". */
export function useTheme(theme: Theme): 'light' | 'dark' {
  const osDark = useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
  const resolved = theme === 'system' ? (osDark ? 'dark' : 'light') : theme;
  useEffect(() => {
    document.documentElement.dataset.theme = resolved;
    document.documentElement.style.colorScheme = resolved;
  }, [resolved]);
  return resolved;
}
