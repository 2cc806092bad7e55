/** What to do about a lost connection to main, in the words of where the page runs (no developer commands). */
import { transport } from '../bridge';

export const notConnectedShort = transport === 'host' ? 'Not connected: open the link Verbatim printed when it started' : 'Not connected: restart Verbatim';

export const notConnectedHelp =
  transport === 'host'
    ? 'Open the link Verbatim printed when it started (it carries a one-time key), or start Verbatim again.'
    : 'Restart Verbatim. If this keeps happening, reinstall it.';
