/** Exporting transcripts from the library: the edits still on their way to main first, then saved or downloaded (lib/saveExport). */
import type { ExportFormat } from '../../../../shared/library';
import { saveOrDownload } from '../../lib/saveExport';
import { useApp } from '../../stores/app';
import { saved } from '../../stores/subtitles';
import { toast } from '../../stores/toasts';

export async function exportTranscripts(ids: string[], format: ExportFormat): Promise<void> {
  // Cue edits still on their way to main belong in the files.
  await saved();
  await saveOrDownload({ from: 'library', ids, format }, { desktop: useApp.getState().info?.mode === 'electron', notify: toast });
}
