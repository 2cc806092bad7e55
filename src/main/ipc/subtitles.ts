/** IPC handlers of the subtitle editor: thin, each one service call. */
import type { Library } from '../services/library/library';
import type { SubtitleExporter } from '../services/library/subtitle-export';
import { importSubtitlesAsItem } from '../services/library/subtitle-import';
import type { PickedFiles } from '../services/picked-files';
import { chooseSubtitleMedia } from '../services/subtitle-media';
import type { Router } from './router';

export function registerSubtitleHandlers(
  router: Router,
  library: Library,
  exporter: SubtitleExporter,
  deps: { picked: PickedFiles; uploadsDir: string; log(message: string): void },
): void {
  const store = library.subtitles;
  router.handle('subtitles.open', ({ id }) => store.open(id));
  router.handle('subtitles.commit', ({ id, version, label, splice, header, trailer }) => store.commit(id, version, label, splice, { header, trailer }));
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
  router.handle('subtitles.export', ({ id, format, voices }) => exporter.export(id, format, { voices }));
  router.handle('subtitles.saveExport', async ({ id, format, voices }) => ({ path: await exporter.save(id, format, { voices }) }));
  router.handle('subtitles.importNew', ({ name, content, media, subtitlePath }) => {
    const chosen = chooseSubtitleMedia({ media, subtitlePath }, { ...deps, uploadInUse: (p) => library.jobs.uploadSources().has(p) });
    const r = importSubtitlesAsItem(library, name, content, chosen);
    if (chosen) void store.precomputePeaks(r.id).catch((e: unknown) => deps.log(`subtitles: waveform of “${chosen.name}” not made ahead: ${String(e)}`));
    return r;
  });
}
