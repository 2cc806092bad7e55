/**
 * Main's wiring shared by both modes: the services and the handlers of the
 * IPC contract. Electron (index.ts) and host mode (host/server.ts) each build a
 * Platform and call createCore; nothing below knows which one it runs in.
 */
// First: zod's settings must be in place before the modules below build their schemas.
import './zod-setup';
import { join } from 'node:path';
import { registerAppHandlers } from './ipc/app';
import { registerCaptionsHandlers } from './ipc/captions';
import { registerCaptionExtrasHandlers } from './ipc/captions-extras';
import { registerChatHandlers } from './ipc/chat';
import { registerEngineHandlers } from './ipc/local-engine';
import { registerJobHandlers } from './ipc/jobs';
import { registerKeyHandlers } from './ipc/keys';
import { registerLibraryHandlers } from './ipc/library';
import { registerModelHandlers } from './ipc/models';
import { registerSettingsHandlers } from './ipc/settings';
import { Router, type Sender } from './ipc/router';
import type { Platform } from './platform/types';
import { CaptionsService } from './services/captions/service';
import { CaptionExtras } from './services/captions/extras';
import { tellLocalEngine } from './services/captions/known-voices';
import { captionModels } from './services/captions/models';
import { ChatService } from './services/chat/service';
import { InsightService } from './services/chat/insights';
import { SubtitleTranslator } from './services/chat/subtitle-translate';
import { registerSubtitleTranslateHandlers } from './ipc/subtitle-translate';
import { ServiceClients } from './services/clients';
import { EngineManager } from './services/local-engine';
import { JobService, type JobServiceOptions } from './services/jobs';
import { PickedFiles } from './services/files/picked';
import { UserFiles } from './services/files/refs';
import { StagedUploads } from './services/files/staged';
import { KeyService, KeyVault } from './services/keys';
import { Library, openDatabase } from './services/library/library';
import { ModelManager } from './services/models/manager';
import { CATALOG } from '../shared/models';
import { ExportSaver } from './services/library/export-files';
import { registerSubtitleHandlers } from './ipc/subtitles';
import { registerReviewHandlers } from './ipc/review';
import { registerPeopleHandlers } from './ipc/people';
import { VoicesService } from './services/voices/service';
import { PeopleService } from './services/voices/people';
import { LibraryRemote } from './services/library/remote';
import { WebhookFollower, type WebhookFollowOptions } from './services/library/webhook-status';
import { SealedFile } from './services/sealed-file';
import { SettingsService } from './services/settings';
import { WebhookReceiver } from './services/webhooks';
import { registerVocabularyHandlers } from './ipc/vocabulary';
import { registerWatchHandlers } from './ipc/watch';
import { registerTemplateHandlers } from './ipc/templates';
import { registerStorageHandlers } from './ipc/storage';
import { registerNotesHandlers } from './ipc/notes';
import { NotesSync } from './services/notes/sync';
import { StorageService } from './services/storage/service';
import { liveKeyterms, VocabularyService } from './services/vocabulary/service';
import { WatchService, type WatchDeps } from './services/watch/service';
import type { JobChanged } from '../shared/jobs';

export interface Core {
  router: Router;
  platform: Platform;
  settings: SettingsService;
  library: Library;
  keys: KeyService;
  engine: EngineManager;
  jobs: JobService;
  webhooks: WebhookReceiver;
  /** REST, streaming and gateway clients for the current region (live captions, chat). */
  clients: ServiceClients;
  /** Live captions: the run, its audio frames (binary messages), the overlay toggle. */
  captions: CaptionsService;
  /** Files the user picked in this session (Electron's preload reports them); only these play from where they are. */
  picked: PickedFiles;
  /** The owner of every file the user hands in: picked paths, staged uploads, the one check before a read. */
  files: UserFiles;
  /** Local models: downloads, installs, deletes in `<data>/models` (the engine reads the same folder). */
  models: ModelManager;
  /** The vocabulary (keyterms of every job and live session) and Fix everywhere. */
  vocabulary: VocabularyService;
  /** Watch folders: files that appear in them are transcribed. */
  watch: WatchService;
  /** How the renderer reaches a recording's audio (host mode: a token route; Electron: a protocol). */
  setMediaUrl(fn: (recordingId: string, redacted: boolean) => string): void;
  dispose(): Promise<void>;
}

export interface CoreOptions {
  jobs?: JobServiceOptions;
  /** Use the webhook receiver for local-engine jobs (default true); polling always runs as the fallback. */
  webhooks?: boolean;
  /** How soon and how long completed transcripts' own webhooks are followed (tests shorten it). */
  webhookFollow?: WebhookFollowOptions;
  /** Resume unfinished jobs at once (default true). */
  resume?: boolean;
  log?: (message: string) => void;
  /** Accept a path over IPC (jobs.addFiles) only when it was picked this session: host mode's server sets it (any tab with the token could name any file). */
  onlyPickedPaths?: boolean;
  /** Host mode's --folder list: registered before anything reads a file or watches a folder (a watch folder inside one is watched at start). */
  hostFolders?: string[];
  /** Watch folders' timings and test hooks (tests shorten the wait for a file to hold still). */
  watch?: Pick<WatchDeps, 'stableMs' | 'pollMs' | 'observed' | 'skipped'>;
  /** Live captions' timings: how long a minute of "Stop after minutes without speech" lasts (tests shorten it; default 60,000 ms). */
  captions?: { silenceMinuteMs?: number };
  /** Model downloads' first retry backoff (tests shorten it; default 1,000 ms, doubling). */
  models?: { retryBaseMs?: number };
  /**
   * Beside the app on its data folder (the command line): the library opens without undoing an
   * interrupted backup import (it may be the app's, still running), and nothing the app owns is
   * taken over: no jobs resumed, no model downloads swept or resumed, no watch folders.
   */
  guest?: boolean;
}

export function createCore(platform: Platform, isTrustedSender: (s: Sender) => boolean, opts: CoreOptions = {}): Core {
  const log = opts.log ?? ((m: string) => console.error(`verbatim: ${m}`));
  const router = new Router(isTrustedSender);
  const settings = new SettingsService(
    platform.settings,
    new SealedFile(
      platform.secrets,
      join(platform.dataDir, 'secrets', 'webhook-auth.bin'),
      'This system offers no encrypted storage (no keyring), so Verbatim cannot keep the webhook secret.',
    ),
  );
  const library = opts.guest ? new Library(platform.dataDir, openDatabase(join(platform.dataDir, 'library.sqlite'))) : new Library(platform.dataDir);
  const vault = new KeyVault(platform.secrets, platform.dataDir);
  const keys = new KeyService(vault, settings);
  const engine = new EngineManager(platform.engine, platform.dataDir, { log });
  const webhooks = new WebhookReceiver();
  const remote = new LibraryRemote(library, vault, engine, settings);
  const follower = new WebhookFollower(library, (ref) => remote.clientFor(ref), { log, ...opts.webhookFollow });
  const picked = new PickedFiles(opts.onlyPickedPaths ?? false);
  for (const f of opts.hostFolders ?? []) picked.addFolder(f);
  const files = new UserFiles(picked, new StagedUploads(join(platform.dataDir, 'uploads'), () => library.jobs.uploadSources()));
  // The waveform of a recording kept only as the user's original reads it through the same check (never its path again).
  library.subtitles.openOriginal = (path) => files.openPath(path);
  const jobs = new JobService(
    library,
    settings,
    vault,
    engine,
    opts.webhooks === false ? null : webhooks,
    {
      changed: (id, job) => {
        router.emit('jobs.changed', { id, job });
        if (job?.status === 'completed') follower.follow(job.recordingId);
        // Remembered voices are recognised in every finished transcript with speakers.
        if (job?.status === 'completed') people.afterJob(job.recordingId);
      },
      progress: (p) => router.emit('jobs.progress', p),
    },
    { log, ...opts.jobs, files },
  );
  const voices = new VoicesService(library, library.voices, engine, (path) => files.openPath(path));
  const people = new PeopleService(library, voices, settings, log);
  const clients = new ServiceClients(settings, vault, engine, (r) => router.emit('gateway.rateLimit', r));
  let mediaUrl: (id: string, redacted: boolean) => string | null = () => null;
  const captions = new CaptionsService({
    library,
    target: async () => {
      const t = await clients.target();
      return { region: t.region as 'us' | 'eu' | 'local' | 'custom', baseUrl: t.region === 'local' ? null : t.endpoints.rest };
    },
    // The vocabulary goes to live captions too, after the session's own terms.
    streaming: (o, h) => clients.streaming({ ...o, keytermsPrompt: liveKeyterms(o.keytermsPrompt, settings.get().vocabulary) }, h),
    improve: (id, title) => jobs.addLiveVersion(id, title),
    // The people's voiceprints go to the local engine only (the service calls this for it alone).
    rememberedVoices: async () => tellLocalEngine(await engine.ensure(), people.forLiveCaptions()),
    forgetRememberedVoices: async () => {
      const h = engine.current();
      if (h) await tellLocalEngine(h, { threshold: 1, voices: [] });
    },
    events: {
      turn: (t) => router.emit('captions.turn', t),
      status: (s) => router.emit('captions.status', s),
      run: (p) => router.emit('captions.run', p),
    },
    log,
  });

  registerAppHandlers(router, platform);
  registerSettingsHandlers(router, settings);
  registerKeyHandlers(router, keys);
  registerJobHandlers(router, jobs);
  const saver = new ExportSaver(library, platform.dialogs);
  // Backups carry remembered voices only when the user ticked the box.
  const backupVoiceprints = () => settings.get().backupVoiceprints === true;
  registerLibraryHandlers(
    router,
    { library, remote, saver, webhooks: follower, backupVoiceprints, backupFolder: (dir, mayCreate) => files.backupFolder(dir, mayCreate) },
    (id, r) => mediaUrl(id, r),
  );
  registerReviewHandlers(router, library);
  registerPeopleHandlers(router, library, voices, people);
  registerEngineHandlers(router, engine);
  registerSubtitleHandlers(router, library, { files, log });
  registerCaptionsHandlers(router, captions, library);
  const chat = new ChatService(library, clients, {
    delta: (p) => router.emit('chat.delta', p),
    message: (p) => router.emit('chat.message', p),
    state: (p) => router.emit('chat.state', p),
    changed: (p) => router.emit('chat.changed', p),
  });
  const insights = new InsightService(library, clients, () => chat.models(), { progress: (p) => router.emit('insights.progress', p) });
  registerChatHandlers(router, chat, insights);
  const subtitleTranslator = new SubtitleTranslator(
    library,
    clients,
    () => chat.models(),
    (p) => router.emit('subtitles.translateProgress', p),
  );
  registerSubtitleTranslateHandlers(router, library, subtitleTranslator);
  registerTemplateHandlers(router, library);
  // Translation and "What did I miss?" beside live captions, through the chat's model of the current region.
  const captionExtras = new CaptionExtras(
    captions,
    library,
    captionModels({ models: () => chat.models(), gateway: () => clients.gateway() }),
    {
      translation: (t) => router.emit('captions.translation', t),
      translationStatus: (s) => router.emit('captions.translationStatus', s),
      missed: (s) => router.emit('captions.missed', s),
      stillRecording: (s) => router.emit('captions.stillRecording', s),
    },
    log,
    {
      summarySetting: () => settings.get().liveSummary,
      silenceMinutes: () => settings.get().silenceStopMinutes,
      silenceMinuteMs: opts.captions?.silenceMinuteMs,
    },
  );
  registerCaptionExtrasHandlers(router, captionExtras);
  const models = new ModelManager(join(platform.dataDir, 'models'), {
    catalog: CATALOG,
    mirror: () => settings.get().models.mirror,
    files,
    changed: (id) => router.emit('models.changed', { id }),
    log,
    retryBaseMs: opts.models?.retryBaseMs,
  });
  registerModelHandlers(router, models, settings, engine);
  const vocabulary = new VocabularyService(library, settings);
  registerVocabularyHandlers(router, vocabulary);
  const watch = new WatchService({
    library,
    check: (path) => jobs.checkPath({ path, picked: true }),
    addChecked: (file, options, within) => jobs.addChecked([file], options, ([job]) => within(job!))[0]!,
    // Host mode: only under --folder.
    folderAllowed: (dir) => files.allowsFolder(dir),
    changed: (folderId) => router.emit('watch.changed', { folderId }),
    log,
    ...opts.watch,
  });
  registerWatchHandlers(router, watch, platform.dialogs);
  const storage = new StorageService({ library, settings, removed: (run) => router.emit('storage.retention', run), log });
  registerStorageHandlers(router, storage);
  // The notes folder: every finished transcript as a Markdown note (host mode: only inside --folder).
  const notes = new NotesSync({
    library,
    dataDir: platform.dataDir,
    allowsFolder: (real) => files.allowsFolder(real),
    changed: (s) => router.emit('notes.changed', s),
    log,
  });
  registerNotesHandlers(router, notes, platform.dialogs);
  let outsideTimer: NodeJS.Timeout | null = null;
  router.subscribe((event, payload) => {
    const job = event === 'jobs.changed' ? (payload as JobChanged).job : null;
    if (job?.status === 'completed') void watch.jobCompleted(job);
  });
  if (!opts.guest) void models.start().catch((e: unknown) => log(`models: ${e instanceof Error ? e.message : String(e)}`));

  if (opts.resume !== false && !opts.guest) {
    jobs.resume();
    follower.resume();
    watch.start();
    storage.start();
    notes.start();
    // What the command line commits beside the app: the library list and the notes folder follow within 2 s.
    outsideTimer = setInterval(() => {
      try {
        library.outside.check();
      } catch (e) {
        log(`library: ${e instanceof Error ? e.message : String(e)}`);
      }
    }, 2000);
    outsideTimer.unref();
  }

  return {
    router,
    platform,
    settings,
    library,
    keys,
    engine,
    jobs,
    webhooks,
    clients,
    captions,
    picked,
    files,
    models,
    vocabulary,
    watch,
    setMediaUrl(fn) {
      mediaUrl = fn;
    },
    async dispose() {
      storage.stop();
      await watch.dispose();
      await notes.dispose();
      if (outsideTimer) clearInterval(outsideTimer);
      await captions.dispose();
      await models.dispose();
      chat.dispose();
      insights.dispose();
      subtitleTranslator.dispose();
      follower.dispose();
      await jobs.dispose();
      await webhooks.close();
      await engine.stop();
      await library.subtitles.stopBackground();
      library.close();
    },
  };
}
