/**
 * Exporting transcripts, whichever app this is: the desktop app saves through
 * the system's save dialog (main writes the files); a browser downloads them.
 */
import type { ExportFormat } from '../../../../shared/library';
import { api, errorMessage, saveExportFile } from '../../bridge';
import { useApp } from '../../stores/app';
import { saved } from '../../stores/subtitles';
import { toast } from '../../stores/toasts';

const fileName = (path: string) => path.split(/[\\/]/).pop() ?? path;

export async function exportTranscripts(ids: string[], format: ExportFormat): Promise<void> {
  // Cue edits still on their way to main belong in the files.
  await saved();
  if (useApp.getState().info?.mode === 'electron') {
    try {
      const r = await api.invoke('library.saveExport', { ids, format });
      for (const e of r.errors) toast(e.message, 'error');
      const first = r.files[0];
      if (!first) return;
      const reveal = { label: 'Show in folder', run: () => void api.invoke('library.revealExport', { path: first.path }).catch(() => undefined) };
      toast(r.files.length === 1 ? `Saved ${fileName(first.path)}.` : `Exported ${r.files.length} files.`, 'ok', reveal);
    } catch (err) {
      toast(errorMessage(err), 'error');
    }
    return;
  }
  let done = 0;
  for (const id of ids) {
    try {
      const out = await api.invoke('library.export', { id, format });
      saveExportFile(out);
      done++;
    } catch (err) {
      toast(errorMessage(err), 'error');
    }
  }
  if (done) toast(`Exported ${done} ${done === 1 ? 'file' : 'files'} to your downloads.`, 'ok');
}
