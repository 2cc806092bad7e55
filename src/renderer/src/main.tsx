/**
 * Renderer entry: paint in the right theme, connect the stores to main, then mount the app.
 * The app itself (React DOM, the screens) is a chunk of its own that index.html preloads beside
 * this one: the bridge opens and the stores' first calls go to main while that chunk still
 * compiles and runs, instead of after it (issue 29: cold start).
 */
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
import { connectWatch } from './stores/watch';
import { connectStorage } from './stores/storage';
import { connectNotes } from './stores/notes';
import { connectLinks } from './stores/links';
import './styles.css';

applyCachedTheme();
// Each store follows main's events from here, once (importing a store opens nothing). Their first calls go to main
// in this order when the bridge opens, and main answers them in it: the library and its queue first, since the first
// screen is the library (the model list and offer, and the storage figures, take main longer, issue 52: cold start).
connectLibrary(api);
connectJobs(api);
connectSettings(api);
connectKeys(api);
connectEngine(api);
connectModels(api);
connectTranscript(api);
connectWatch(api);
connectStorage(api);
connectNotes(api);
connectLinks(api);
connectCaptions(api);
connectChat(api);
connectApp();
import('./mount')
  .then((m) => m.mount())
  .catch(() => {
    const root = document.getElementById('root');
    if (root) root.textContent = 'Verbatim could not load its interface. Reload the page; if this persists, rebuild it (npm run serve does).';
  });
