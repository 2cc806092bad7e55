/** IPC handlers of the subtitle editor: thin, each one service call. */
import type { Library } from '../services/library/library';
import { importSubtitlesOffThread } from '../services/library/subtitle-import';
import type { PickedFiles } from '../services/picked-files';
import { chooseSubtitleMedia } from '../services/subtitle-media';
import type { SubtitleDocWire } from '../../shared/subtitles/wire';
import type { SubtitleFileRef } from '../../shared/ipc/subtitles';
import type { SubtitleText } from '../services/library/subtitle-text';
import { subtitleFileText } from '../services/subtitle-file';
import { SubtitleDocJson } from './open-json';
import type { Router } from './router';

/** Exports go through the library's one pair (library.export, library.saveExport), not a channel of their own. */
export function registerSubtitleHandlers(
  router: Router,
  library: Library,
  deps: { picked: PickedFiles; uploadsDir: string; log(message: string): void },
): void {
  const store = library.subtitles;
  // The library's worker reads and writes the cues (200,000 of them hold the event loop for seconds); what crosses is small or columns.
  router.handle('subtitles.open', async ({ id }, ctx) => {
    // Host mode's bridge sends JSON text: the worker writes and checks it, and the event loop hands the bytes on (open-json.ts).
    const json = ctx.jsonText ? await library.offload.openSubtitlesJson(id) : null;
    return json ? (new SubtitleDocJson(json) as unknown as SubtitleDocWire) : library.offload.openSubtitles(id);
  });
  const fileDeps = { ...deps, uploadInUse: (p: string) => library.jobs.uploadSources().has(p) };
  // A subtitle file's text as the worker reads it: a file named by reference is checked here and read there, never a string on this loop.
  const text = (args: { content: string } | { file: SubtitleFileRef }, name: string): SubtitleText =>
    'file' in args ? subtitleFileText(args.file, name, fileDeps) : { content: args.content };
  router.handle('subtitles.run', ({ id, version, ...edit }) =>
    library.offload.runSubtitles(
      id,
      version,
      edit.command === 'replaceFrom' ? { ...edit, args: { name: edit.args.name, text: text(edit.args, edit.args.name) } } : edit,
    ),
  );
  router.handle('subtitles.undo', ({ id, version }) => library.offload.stepSubtitles('undo', id, version));
  router.handle('subtitles.redo', ({ id, version }) => library.offload.stepSubtitles('redo', id, version));
  router.handle('subtitles.setProfile', ({ id, profileId }) => {
    store.setProfile(id, profileId);
    return { ok: true as const };
  });
  router.handle('subtitles.saveProfile', ({ profile }) => ({ profiles: store.saveProfile(profile) }));
  router.handle('subtitles.deleteProfile', ({ profileId }) => ({ profiles: store.deleteProfile(profileId) }));
  router.handle('subtitles.peaks', ({ id }) => {
    library.recordings.item(id);
    return store.peaks(id, store.audioOf(id));
  });
  router.handle('subtitles.importNew', async ({ name, content, file, media, subtitlePath }) => {
    const source = text(file ? { file } : { content: content ?? '' }, name);
    const chosen = chooseSubtitleMedia({ media, subtitlePath: subtitlePath ?? (file?.kind === 'path' ? file.path : undefined) }, fileDeps);
    const r = await importSubtitlesOffThread(library, library.offload, name, source, chosen);
    if (chosen) void store.precomputePeaks(r.id).catch((e: unknown) => deps.log(`subtitles: waveform of “${chosen.name}” not made ahead: ${String(e)}`));
    return r;
  });
}
