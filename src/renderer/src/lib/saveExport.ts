/**
 * Saving exported files, whichever app this is: the desktop app asks main to
 * save them through the system's dialog (its one saver; each saved file can be
 * shown in its folder), a browser downloads them. The library and the
 * Subtitles view both save through here.
 */
import type { ExportFormat } from '../../../shared/library';
import { api, errorMessage, saveExportFile } from '../bridge';

export type ExportRequest = { from: 'library'; ids: string[]; format: ExportFormat } | { from: 'subtitles'; id: string; format: ExportFormat; voices: boolean };

/** How the outcome is told (the caller's toasts): errors, and what was saved with an action to show it. */
export type Notify = (text: string, tone: 'ok' | 'error', action?: { label: string; run(): void }) => void;

const fileName = (path: string) => path.split(/[\\/]/).pop() ?? path;

export async function saveOrDownload(req: ExportRequest, opts: { desktop: boolean; notify: Notify }): Promise<void> {
  const { notify } = opts;
  try {
    if (opts.desktop) return await saveInDesktop(req, notify);
    const ids = req.from === 'library' ? req.ids : [req.id];
    const names: string[] = [];
    for (const id of ids) {
      try {
        const out =
          req.from === 'library'
            ? await api.invoke('library.export', { id, format: req.format })
            : await api.invoke('subtitles.export', { id, format: req.format, voices: req.voices });
        saveExportFile(out);
        names.push(out.filename);
      } catch (err) {
        notify(errorMessage(err), 'error');
      }
    }
    if (names.length) notify(`Exported ${names.length === 1 ? names[0] : `${names.length} files`} to your downloads.`, 'ok');
  } catch (err) {
    notify(errorMessage(err), 'error');
  }
}

async function saveInDesktop(req: ExportRequest, notify: Notify): Promise<void> {
  let paths: string[];
  if (req.from === 'library') {
    const r = await api.invoke('library.saveExport', { ids: req.ids, format: req.format });
    for (const e of r.errors) notify(e.message, 'error');
    paths = r.files.map((f) => f.path);
  } else {
    const r = await api.invoke('subtitles.saveExport', { id: req.id, format: req.format, voices: req.voices });
    paths = r.path ? [r.path] : [];
  }
  const first = paths[0];
  if (!first) return;
  const reveal = { label: 'Show in folder', run: () => void api.invoke('library.revealExport', { path: first }).catch(() => undefined) };
  notify(paths.length === 1 ? `Saved ${fileName(first)}.` : `Exported ${paths.length} files.`, 'ok', reveal);
}
