/** verbatim://recording/ID?t=SECONDS links (Markdown notes, the MCP server's citations) opened on the desktop: the recording at that moment. */
import type { VerbatimApi } from '../../../shared/ipc';
import { useApp } from './app';

/** Called once from main.tsx. */
export function connectLinks(api: VerbatimApi): () => void {
  return api.on('app.openLink', ({ recordingId, ms }) => useApp.getState().openTranscript(recordingId, ms));
}
