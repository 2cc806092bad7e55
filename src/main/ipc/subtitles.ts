/** IPC handlers of the subtitle editor: thin, each one service call. */
import type { Library } from '../services/library/library';
import { importSubtitlesOffThread } from '../services/library/subtitle-import';
import type { PickedFiles } from '../services/picked-files';
import { chooseSubtitleMedia } from '../services/subtitle-media';
import type { SubtitleDoc } from '../../shared/subtitles/schema';
import { checkedJson, checkedOutput } from './checked';
import type { Router } from './router';

/** Exports go through the library's one pair (library.export, library.saveExport), not a channel of their own. */
export function registerSubtitleHandlers(
  router: Router,
  library: Library,
  deps: { picked: PickedFiles; uploadsDir: string; log(message: string): void },
): void {
  const store = library.subtitles;
  router.handle('subtitles.open', async ({ id }, ctx) => {
    // Host mode's bridge sends JSON text: the worker writes it (checked), and the event loop never stringifies 200,000 cues.
    if (ctx.jsonText) {
      const json = await library.offload.openSubtitlesJson(id);
      if (json) return checkedJson(json) as unknown as SubtitleDoc;
    }
    const r = await library.offload.openSubtitles(id);
    return r.checked ? checkedOutput(r.doc) : r.doc;
  });
  // A Reset or an import onto the cues may replace 200,000 of them: stored on the library's worker thread.
  router.handle('subtitles.commit', ({ id, version, label, splice, header, trailer }) =>
    library.offload.commitSubtitles(id, version, label, splice, { header, trailer }),
  );
  router.handle('subtitles.undo', ({ id, version }) => store.undo(id, version));
  router.handle('subtitles.redo', ({ id, version }) => store.redo(id, version));
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
