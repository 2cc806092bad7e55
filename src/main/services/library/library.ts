/**
 * The library (DESIGN.md §6): the one owner of the database. It opens the
 * file and hands every store the same handle and context; callers reach data
 * through the stores (`library.recordings`, `library.jobs`, ...), each a small
 * module with one kind of data. Only this folder imports better-sqlite3.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AudioStore } from './audio';
import { BackupStore } from './backup';
import { rollBackInterruptedImport } from './backup-journal';
import { ChatStore } from './chats';
import { ChangeFeed, openDatabase, type Database, type LibraryChange, type LibraryContext } from './db';
import { EditStore } from './edits';
import { ExportStore } from './exports';
import { InsightStore } from './insights';
import { ReviewStore } from './review';
import { JobStore } from './jobs';
import { LiveExtrasStore } from './live-extras';
import { RecordingStore } from './recordings';
import { RetentionStore } from './retention';
import { RetrievalStore } from './retrieval';
import { SearchIndex } from './search';
import { SessionStore } from './sessions';
import { LibraryOffload } from './library-offload';
import { OutsideChanges } from './outside-changes';
import { FixStore } from './fix-store';
import { SubtitleStore } from './subtitles';
import { SubtitleTranslations } from './subtitle-translations';
import { TranscriptStore } from './transcripts';
import { TemplateStore } from './templates';
import { WebhookLog } from './webhook-log';
import { WatchStore } from './watch-store';
import { VoiceStore } from './voices';

export { openDatabase, type LibraryChange, type LibraryContext } from './db';
export type { NewRecording } from './recordings';
export type { CompletedTranscript } from './transcripts';
export type { RemoteRef } from './webhook-log';
export { SEARCH_RANK_WINDOW } from './search';

export class Library {
  readonly audioDir: string;
  readonly context: LibraryContext;
  readonly recordings: RecordingStore;
  readonly transcripts: TranscriptStore;
  readonly audio: AudioStore;
  /** Audio the retention rule lets go: moved to a trash that Undo empties back, deleted at the next start. */
  readonly retention: RetentionStore;
  readonly jobs: JobStore;
  readonly search: SearchIndex;
  readonly exports: ExportStore;
  readonly backup: BackupStore;
  readonly webhooks: WebhookLog;
  readonly edits: EditStore;
  /** The subtitle editor's storage (cue edits, history, profiles, peaks). */
  readonly subtitles: SubtitleStore;
  /** Translated subtitle tracks (each an item of its own) and how far each has come. */
  readonly translations: SubtitleTranslations;
  /** Live caption sessions (recordings of kind `live`, their versions). */
  readonly sessions: SessionStore;
  /** A live session's translations and "What did I miss?" summaries. */
  readonly liveExtras: LiveExtrasStore;
  /** Chats over recordings, the passages they retrieve, saved speech-understanding results. */
  readonly chats: ChatStore;
  readonly retrieval: RetrievalStore;
  readonly insights: InsightStore;
  /** Words accepted in review of doubtful words. */
  /** The user's summary templates (built-in ones ship with the app). */
  readonly templates: TemplateStore;
  readonly review: ReviewStore;
  /** Turn voiceprints, speaker notes and remembered voices. */
  readonly voices: VoiceStore;
  /** Watch folders and the files taken from them. */
  readonly watch: WatchStore;
  /** Fix everywhere's writes and their Undo, in slices, journaled. */
  readonly fixes: FixStore;
  /** Commits another process made (the command line beside the app), told as changes here; see outside-changes.ts. */
  readonly outside: OutsideChanges;
  /** Heavy work (200,000-cue subtitle imports and commits) on the library's worker thread. */
  readonly offload: LibraryOffload = new LibraryOffload(this);
  private readonly db: Database;
  private readonly feed = new ChangeFeed();

  /** `db` lets tests open a prepared file; by default `<dataDir>/library.sqlite`. */
  constructor(
    readonly dataDir: string,
    db?: Database,
  ) {
    mkdirSync(dataDir, { recursive: true });
    this.db = db ?? openDatabase(join(dataDir, 'library.sqlite'));
    this.audioDir = join(dataDir, 'audio');
    mkdirSync(this.audioDir, { recursive: true });
    const ctx: LibraryContext = { dataDir, audioDir: this.audioDir, changed: (ids, reason) => this.feed.emit(ids, reason) };
    this.context = ctx;
    this.recordings = new RecordingStore(this.db, ctx);
    this.transcripts = new TranscriptStore(this.db, ctx);
    this.audio = new AudioStore(this.db, ctx);
    this.retention = new RetentionStore(this.db, ctx);
    this.jobs = new JobStore(this.db, ctx);
    this.search = new SearchIndex(this.db, ctx);
    this.exports = new ExportStore(this.db, ctx, (recordingId, known) => this.subtitles.cues(recordingId, known));
    this.backup = new BackupStore(this.db, ctx);
    this.webhooks = new WebhookLog(this.db, ctx);
    this.edits = new EditStore(this.db, ctx);
    this.subtitles = new SubtitleStore(this.db, ctx, { words: (t) => this.transcripts.words(t), correctWords: (r, e) => this.edits.correctWords(r, e) });
    this.translations = new SubtitleTranslations(this.db, this);
    this.sessions = new SessionStore(this.db, ctx);
    this.liveExtras = new LiveExtrasStore(this.db);
    this.chats = new ChatStore(this.db, ctx);
    this.retrieval = new RetrievalStore(this.db, ctx);
    this.insights = new InsightStore(this.db, ctx);
    this.watch = new WatchStore(this.db, ctx);
    this.review = new ReviewStore(this.db);
    this.templates = new TemplateStore(this.db);
    this.voices = new VoiceStore(this.db, ctx);
    this.outside = new OutsideChanges(this.db, ctx);
    // A backup import a crash cut short is undone before anything reads the library. Only the app's own
    // connection does this: the worker's (handed `db`) opens while an import may be running.
    if (!db) rollBackInterruptedImport(this.db, this.audioDir);
    this.fixes = new FixStore(this.db, { transcript: (r) => this.transcripts.shownWords(r), correctWords: (r, e) => this.edits.applyCorrections(r, e) });
    // Likewise a Fix everywhere (or its Undo) cut short: the library goes back to before it.
    if (!db) this.fixes.recover();
  }

  /** The database file (for a second connection on the library's worker thread). */
  get dbFile(): string {
    return this.db.name;
  }

  onChange(listener: (c: LibraryChange) => void): () => void {
    return this.feed.on(listener);
  }

  /**
   * Run `fn` in one transaction (several stores' writes that must land together). Every library
   * transaction begins IMMEDIATE: the library worker has a connection of its own, and a deferred
   * transaction that read before the other connection wrote fails its own write at once
   * (SQLITE_BUSY_SNAPSHOT, "database is locked"); taking the write lock first makes the other wait.
   */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** Whether the library's database is still open (work queued for later checks before it reads). */
  get isOpen(): boolean {
    return this.db.open;
  }

  close(): void {
    void this.offload.close();
    this.db.close();
  }
}
