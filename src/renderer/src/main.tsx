/** Renderer entry: paint in the right theme, then mount the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { OverlayApp } from './features/captions/OverlayApp';
import { applyCachedTheme } from './components/useTheme';
import './styles.css';

applyCachedTheme();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(<StrictMode>{window.location.hash === '#overlay' ? <OverlayApp /> : <App />}</StrictMode>);
