/** The app's React tree, mounted by main.tsx once the stores are connected: React DOM and every screen load as this chunk. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { OverlayApp } from './features/captions/OverlayApp';

export function mount(): void {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  createRoot(root).render(<StrictMode>{window.location.hash === '#overlay' ? <OverlayApp /> : <App />}</StrictMode>);
}
