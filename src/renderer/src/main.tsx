/** Renderer entry: paint in the right theme, connect the stores to main, then mount the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { OverlayApp } from './features/captions/OverlayApp';
import { applyCachedTheme } from './components/useTheme';
import { api } from './bridge';
import { connectApp } from './stores/app';
import { connectCaptions } from './stores/captions';
import { connectChat } from './stores/chat';
import { connectJobs } from './stores/jobs';
import { connectKeys } from './stores/keys';
import { connectLibrary } from './stores/library';
import { connectEngine } from './stores/localEngine';
import { connectModels } from './stores/models';
import { connectSettings } from './stores/settings';
import { connectTranscript } from './stores/transcript';
import './styles.css';

applyCachedTheme();
// Each store follows main's events from here, once (importing a store opens nothing). The order is the old import order.
connectSettings(api);
connectKeys(api);
connectEngine(api);
connectModels(api);
connectJobs(api);
connectLibrary(api);
connectTranscript(api);
connectCaptions(api);
connectChat(api);
connectApp();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(<StrictMode>{window.location.hash === '#overlay' ? <OverlayApp /> : <App />}</StrictMode>);
