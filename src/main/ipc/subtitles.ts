/** IPC handlers of the subtitle editor: thin, each one service call. */
import { rm } from 'node:fs/promises';
import type { Library } from '../services/library/library';
import { importSubtitlesOffThread } from '../services/library/subtitle-import';
import type { UserFiles } from '../services/files/refs';
import { chooseSubtitleMedia } from '../services/files/subtitle-media';
import type { SubtitleDocWire } from '../../shared/subtitles/wire';
import type { FileRef } from '../../shared/ipc/files';
import type { SubtitleText } from '../services/library/subtitle-text';
import { subtitleFileText } from '../services/files/subtitle-file';
import { SubtitleDocJson } from './open-json';
import type { Router } from './router';

/** Exports go through the library's one pair (library.export, library.saveExport), not a channel of their own. */
export function registerSubtitleHandlers(router: Router, library: Library, deps: { files: UserFiles; log(message: string): void }): void {
  const store = library.subtitles;
  // The library's worker reads and writes the cues (200,000 of them hold the event loop for seconds); what crosses is small or columns.
  router.handle('subtitles.open', async ({ id }, ctx) => {
    // Host mode's bridge sends JSON text: the worker writes and checks it, and the event loop hands the bytes on (open-json.ts).
    const json = ctx.jsonText ? await library.offload.openSubtitlesJson(id) : null;
    return json ? (new SubtitleDocJson(json) as unknown as SubtitleDocWire) : library.offload.openSubtitles(id);
  });
  // A subtitle file's text as the worker reads it: a file named by reference is checked (services/files) and read there, never a string on this loop.
  const text = async (args: { content: string } | { file: FileRef }, name: string): Promise<SubtitleText> =>
    'file' in args ? subtitleFileText(args.file, name, deps.files) : { content: args.content };
  router.handle('subtitles.run', async ({ id, version, ...edit }) =>
    library.offload.runSubtitles(
      id,
      version,
      edit.command === 'replaceFrom' ? { ...edit, args: { name: edit.args.name, text: await text(edit.args, edit.args.name) } } : edit,
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
  router.handle('subtitles.importNew', async ({ name, content, file, media }) => {
    const source = await text(file ? { file } : { content: content ?? '' }, name);
    const chosen = await chooseSubtitleMedia({ media, subtitle: file }, deps.files).catch(async (e: unknown) => {
      // The subtitles' staged copy is of no use without the item.
      if ('path' in source && source.remove) await rm(source.path, { force: true });
      throw e;
    });
    const r = await importSubtitlesOffThread(library, library.offload, name, source, chosen);
    if (chosen) void store.precomputePeaks(r.id).catch((e: unknown) => deps.log(`subtitles: waveform of “${chosen.name}” not made ahead: ${String(e)}`));
    return r;
  });
}
