/**
 * Exporting recordings to files, from the library, a transcript or the
 * Subtitles view alike: the edits still on their way to main go first, then
 * the desktop app asks main to save the files through the system's dialog
 * (its one saver; a saved file can be shown in its folder) and a browser
 * downloads them. One channel pair does it: library.export and library.saveExport.
 */
import type { Input } from '../../../shared/ipc';
import { api, errorMessage, saveExportFile } from '../bridge';
import { useApp } from './app';
import { saved } from './subtitles';
import { toast } from './toasts';

/** The recordings, the format, and (VTT) whether cues carry `<v Name>` voice tags. */
export type ExportRequest = Pick<Input<'library.saveExport'>, 'ids' | 'format' | 'voices' | 'bilingual'>;

/** How the outcome is told (the toasts): errors, and what was saved with an action to show it. */
export type Notify = (text: string, tone: 'ok' | 'error', action?: { label: string; run(): void }) => void;

const fileName = (path: string) => path.split(/[\\/]/).pop() ?? path;

/** Saves (desktop) or downloads (browser) one file per recording, after the cue edits still on their way to main. */
export async function exportRecordings(req: ExportRequest, notify: Notify = toast): Promise<void> {
  await saved();
  await saveOrDownload(req, { desktop: useApp.getState().info?.mode === 'electron', notify });
}

export async function saveOrDownload(req: ExportRequest, opts: { desktop: boolean; notify: Notify }): Promise<void> {
  const { notify } = opts;
  const voices = { ...(req.voices === undefined ? {} : { voices: req.voices }), ...(req.bilingual ? { bilingual: true } : {}) };
  try {
    if (opts.desktop) return await saveInDesktop(req, notify);
    const names: string[] = [];
    for (const id of req.ids) {
      try {
        const out = await api.invoke('library.export', { id, format: req.format, ...voices });
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
  const r = await api.invoke('library.saveExport', {
    ids: req.ids,
    format: req.format,
    ...(req.voices === undefined ? {} : { voices: req.voices }),
    ...(req.bilingual ? { bilingual: true } : {}),
  });
  for (const e of r.errors) notify(e.message, 'error');
  const paths = r.files.map((f) => f.path);
  const first = paths[0];
  if (!first) return;
  const reveal = { label: 'Show in folder', run: () => void api.invoke('library.revealExport', { path: first }).catch(() => undefined) };
  notify(paths.length === 1 ? `Saved ${fileName(first)}.` : `Exported ${paths.length} files.`, 'ok', reveal);
}
