/** IPC handlers of the subtitle editor: thin, each one service call. */
import type { Library } from '../services/library/library';
import { importSubtitlesOffThread } from '../services/library/subtitle-import';
import type { PickedFiles } from '../services/picked-files';
import { chooseSubtitleMedia } from '../services/subtitle-media';
import type { SubtitleDocWire } from '../../shared/subtitles/wire';
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
  router.handle('subtitles.run', ({ id, version, ...edit }) => library.offload.runSubtitles(id, version, edit));
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
  router.handle('subtitles.importNew', async ({ name, content, media, subtitlePath }) => {
    const chosen = chooseSubtitleMedia({ media, subtitlePath }, { ...deps, uploadInUse: (p) => library.jobs.uploadSources().has(p) });
    const r = await importSubtitlesOffThread(library, library.offload, name, content, chosen);
    if (chosen) void store.precomputePeaks(r.id).catch((e: unknown) => deps.log(`subtitles: waveform of “${chosen.name}” not made ahead: ${String(e)}`));
    return r;
  });
}
