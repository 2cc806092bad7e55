import type { ExportSaver } from '../services/library/export-files';
import type { Library } from '../services/library/library';
import type { LibraryRemote } from '../services/library/remote';
import type { WebhookFollower } from '../services/library/webhook-status';
import type { Router } from './router';
import { AppError } from '../../shared/errors';
import { packTranscript } from '../../shared/transcript-columns';

export interface LibraryServices {
  library: Library;
  remote: LibraryRemote;
  saver: ExportSaver;
  webhooks: WebhookFollower;
  /** Whether backups carry remembered voices (the user's setting; absent: never). */
  backupVoiceprints?: () => boolean;
  /** A backup's folder through the owner of the user's files (host mode: only under --folder, by its real path); absent: as given. */
  backupFolder?: (dir: string, mayCreate: boolean) => Promise<string>;
}

export function registerLibraryHandlers(router: Router, services: LibraryServices, mediaUrl: (id: string, redacted: boolean) => string | null): void {
  const { library, remote, saver, webhooks } = services;
  router.handle('library.list', (input) => library.recordings.list(input ?? {}));
  router.handle('library.get', ({ id, firstWords }) => library.transcripts.wire(id, undefined, firstWords));
  router.handle('library.rename', ({ id, title }) => library.recordings.rename(id, title));
  router.handle('library.setTags', ({ id, tags }) => library.recordings.setTags(id, tags));
  router.handle('library.tags', () => ({ tags: library.recordings.tags() }));
  router.handle('library.delete', async ({ ids, remote: alsoRemote }) => {
    const remoteErrors = alsoRemote ? await remote.deleteRemote(ids) : [];
    return { deleted: library.recordings.delete(ids), remoteErrors };
  });
  router.handle('library.correctWords', ({ id, edits }) => packTranscript(library.edits.correctWords(id, edits)));
  router.handle('library.renameSpeaker', ({ id, speaker, name }) => packTranscript(library.edits.renameSpeaker(id, speaker, name)));
  // The one export pair for the library, a transcript and the Subtitles view (its VTT voice tags: `voices`).
  router.handle('library.export', ({ id, format, voices, charsPerCaption, captionText, bilingual }) =>
    library.exports.file(id, format, { voices, rebuildCharsPerLine: charsPerCaption, captionText, bilingual }),
  );
  router.handle('library.checkWebhook', async ({ id }) => ({ webhook: await webhooks.check(id) }));
  router.handle('library.saveExport', ({ ids, format, voices, charsPerCaption, bilingual }) =>
    saver.save(
      ids,
      format,
      { voices, rebuildCharsPerLine: charsPerCaption, bilingual },
      format === 'srt' || format === 'vtt' ? 'Export subtitles' : 'Export transcript',
    ),
  );
  router.handle('library.revealExport', ({ path }) => {
    saver.reveal(path);
    return { ok: true as const };
  });
  router.handle('library.mediaUrl', ({ id, redacted }) => {
    library.recordings.item(id);
    return { url: library.audio.path(id, redacted ? 'redacted' : 'original') ? mediaUrl(id, redacted) : null };
  });
  // One backup at a time; its progress (written by the writer at most 10 times a second) as events.
  let exporting = false;
  router.handle('library.exportAll', async (input) => {
    const dir = services.backupFolder ? await services.backupFolder(input.dir, true) : input.dir;
    if (exporting) throw new AppError('conflict', 'A backup is being made already. Wait for it to finish.');
    exporting = true;
    try {
      return await library.backup.exportAll(dir, {
        voiceprints: services.backupVoiceprints?.() === true,
        progress: (p) => router.emit('library.exportProgress', p),
      });
    } finally {
      exporting = false;
    }
  });
  // One backup import at a time; its progress at most 10 times a second; importCancel stops it.
  let importing: AbortController | null = null;
  router.handle('library.importAll', async (input) => {
    const dir = services.backupFolder ? await services.backupFolder(input.dir, false) : input.dir;
    if (importing) throw new AppError('conflict', 'A backup is being imported already. Wait for it to finish or cancel it.');
    const abort = new AbortController();
    importing = abort;
    let last = 0;
    try {
      return await library.backup.importAll(dir, {
        signal: abort.signal,
        progress: (p) => {
          const now = Date.now();
          if (now - last < 100 && p.done < p.total) return;
          last = now;
          router.emit('library.importProgress', p);
        },
      });
    } finally {
      importing = null;
    }
  });
  router.handle('library.importCancel', () => {
    const running = importing !== null;
    importing?.abort();
    return { canceled: running };
  });
  router.handle('search.query', ({ query, tag, limit, offset, voiceId }) => {
    const t0 = performance.now();
    const hits = library.search.search(query, { tag, limit, offset, voiceId });
    return { hits, tookMs: Math.round((performance.now() - t0) * 100) / 100 };
  });
  library.onChange((c) => router.emit('library.changed', c));
}
