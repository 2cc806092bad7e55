/**
 * Translated subtitle tracks. A translation is a library item of its own
 * (titled "Source (French)", playing the source's media), whose cues have the
 * source's timings, so it opens, edits, searches and exports like any item.
 * What it was translated from lives in its transcript's options
 * (`translation`): the source item, the language, and for each cue (by its
 * start and end) the source text it was translated from. A cue not there, or
 * whose source text has changed since, is what a resume translates; the
 * cues already there are never asked again. Each part is stored as it
 * finishes (one edit for undo), so a Stop or a dropped connection keeps it.
 */
import type { Database } from 'better-sqlite3';
import { AppError } from '../../../shared/errors';
import { cueDisplayText, rebalanceText, type Cue } from '../../../shared/subtitles/index';
import type { AudioStore } from './audio';
import type { LibraryContext } from './db';
import type { RecordingStore } from './recordings';
import type { SubtitleStore } from './subtitles';
import type { TranscriptStore } from './transcripts';
import type { Word } from '../../../shared/library';

/** What the store uses of the library (the Library itself; named by its parts so this file does not import it). */
export interface TranslationLibrary {
  recordings: RecordingStore;
  transcripts: TranscriptStore;
  subtitles: SubtitleStore;
  audio: AudioStore;
  context: LibraryContext;
}

export interface TranslationState {
  from: string;
  language: string;
  model: string | null;
  /** `${start}-${end}` of a translated cue → the source text it was translated from. */
  sources: Record<string, string>;
}

export interface TranslationTrack {
  id: string;
  title: string;
  language: string;
  /** Cues of the source translated (their source unchanged since), and the source's cues. */
  done: number;
  total: number;
}

const key = (c: { start: number; end: number }) => `${c.start}-${c.end}`;
/** A cue's text as one line without tags: what is sent and what a change is judged by. */
export const cueLine = (c: Cue): string => cueDisplayText(c.text).replace(/\s+/g, ' ').trim();

/** The state stored with a track, or null when the item is not a translation. */
export function translationStateOf(options: Record<string, unknown>): TranslationState | null {
  const t = options.translation as Partial<TranslationState> | undefined;
  if (!t || typeof t.from !== 'string' || typeof t.language !== 'string' || typeof t.sources !== 'object' || !t.sources) return null;
  return { from: t.from, language: t.language, model: typeof t.model === 'string' ? t.model : null, sources: t.sources };
}

/** Reads and writes translation tracks (needs the database for the options column; the cues go through the subtitle store). */
export class SubtitleTranslations {
  constructor(
    private readonly db: Database,
    private readonly library: TranslationLibrary,
  ) {}

  private transcriptOf(id: string): { id: string; options: Record<string, unknown> } {
    const row = this.db.prepare(`SELECT id, options FROM transcripts WHERE recording_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`).get(id) as
      { id: string; options: string } | undefined;
    if (!row) throw new AppError('not_found', 'This recording is no longer in the library.');
    return { id: row.id, options: JSON.parse(row.options) as Record<string, unknown> };
  }

  /** The state of a translated track; null when `id` is not one. */
  state(id: string): TranslationState | null {
    return translationStateOf(this.transcriptOf(id).options);
  }

  private trackRows(sourceId: string): { id: string; title: string; options: string }[] {
    return this.db
      .prepare(
        `SELECT r.id, r.title, t.options FROM recordings r JOIN transcripts t ON t.recording_id = r.id
         WHERE json_extract(t.options, '$.translation.from') = ? ORDER BY r.created_at`,
      )
      .all(sourceId) as { id: string; title: string; options: string }[];
  }

  /** Whether `sourceId` has translated tracks (a cheap look before its cues are read). */
  hasTracks(sourceId: string): boolean {
    return this.trackRows(sourceId).length > 0;
  }

  /**
   * The translated tracks of `sourceId`, with how far each has come against `source`, the source's cues now
   * (read by the caller, off the event loop: library-offload.ts openSubtitles).
   */
  tracks(sourceId: string, source: readonly Cue[]): TranslationTrack[] {
    const rows = this.trackRows(sourceId);
    return rows.flatMap((r) => {
      const s = translationStateOf(JSON.parse(r.options) as Record<string, unknown>);
      if (!s) return [];
      const done = source.filter((c) => s.sources[key(c)] === cueLine(c)).length;
      return [{ id: r.id, title: r.title, language: s.language, done, total: source.length }];
    });
  }

  /** The track of `sourceId` in `language` (any case), or a new one with the source's timings and no text yet. */
  open(sourceId: string, source: readonly Cue[], language: string, model: string): string {
    const found = this.tracks(sourceId, source).find((t) => t.language.toLowerCase() === language.toLowerCase());
    if (found) return found.id;
    const item = this.library.recordings.item(sourceId);
    const cues = source.map((c) => ({ start: c.start, end: c.end, text: '' }));
    if (!cues.length) throw new AppError('conflict', 'These subtitles have no cues to translate.');
    const media = this.library.audio.path(sourceId, 'original');
    const { recordingId, transcriptId } = this.library.recordings.add({
      title: `${item.title} (${language})`,
      source: item.source,
      sourceKind: 'import',
      sizeBytes: null,
      durationMs: item.durationMs ?? cues[cues.length - 1]!.end,
      originalPath: media,
      region: 'local',
      baseUrl: null,
      options: { translation: { from: sourceId, language, model, sources: {} } satisfies TranslationState },
    });
    this.complete(transcriptId, [], cues);
    this.library.subtitles.save(recordingId, 0, `Translate into ${language}`, { at: 0, remove: this.library.subtitles.cues(recordingId).cues, insert: cues });
    this.library.context.changed([recordingId], 'added');
    return recordingId;
  }

  /**
   * The track's cues made to match the source's timings (when the source was
   * retimed, split or merged since): cues with the same start and end keep
   * their text; others start empty.
   */
  align(id: string, source: readonly Cue[]): void {
    const track = this.library.subtitles.cues(id).cues;
    const same = track.length === source.length && track.every((c, i) => c.start === source[i]!.start && c.end === source[i]!.end);
    if (!same) {
      const byKey = new Map(track.map((c) => [key(c), c.text]));
      const insert = source.map((c) => ({ start: c.start, end: c.end, text: byKey.get(key(c)) ?? '' }));
      this.library.subtitles.save(id, this.library.subtitles.open(id).version, 'Match the source’s timings', { at: 0, remove: track, insert });
    }
  }

  /** Stores a finished part: the cues' text (one edit) and the source each was translated from. */
  writePart(id: string, source: readonly Cue[], part: { index: number; text: string }[]): void {
    if (!part.length) return;
    const first = part[0]!.index;
    const last = part[part.length - 1]!.index;
    const { cues: track, profile } = this.library.subtitles.cues(id);
    const remove = track.slice(first, last + 1);
    // Laid out in lines by the track's rules profile (a translation is often longer than its original).
    const texts = new Map(part.map((p) => [p.index, rebalanceText(p.text, profile.maxCharsPerLine, profile.maxLines) ?? p.text]));
    const insert = remove.map((c, i) => ({ start: c.start, end: c.end, text: texts.get(first + i) ?? c.text }));
    const t = this.transcriptOf(id);
    const state = translationStateOf(t.options);
    if (!state) throw new AppError('conflict', 'This item is not a translation.');
    for (const p of part) state.sources[key(source[p.index]!)] = cueLine(source[p.index]!);
    this.db
      .transaction(() => {
        this.library.subtitles.save(id, this.library.subtitles.open(id).version, `Translate cues ${first + 1}–${last + 1}`, { at: first, remove, insert });
        this.db.prepare(`UPDATE transcripts SET options = ? WHERE id = ?`).run(JSON.stringify({ ...t.options, translation: state }), t.id);
      })
      .immediate();
  }

  /**
   * The track's words made from its cues by `toWords` (subtitle-import.ts wordsFromCues), so it reads, searches and
   * exports as text too (after a run, finished or not).
   */
  settle(id: string, toWords: (cues: readonly Cue[]) => Word[]): void {
    const t = this.transcriptOf(id);
    const cues = this.library.subtitles.cues(id).cues;
    this.complete(t.id, toWords(cues.map((c) => ({ start: c.start, end: c.end, text: c.text }))), cues);
    this.library.context.changed([id], 'updated');
  }

  private complete(transcriptId: string, words: Word[], cues: readonly Cue[]): void {
    this.library.transcripts.complete(transcriptId, {
      remoteId: null,
      text: words.map((w) => w.text).join(' '),
      words,
      sentences: null,
      paragraphs: null,
      confidence: null,
      language: null,
      model: 'translation',
      durationMs: cues.length ? cues[cues.length - 1]!.end : 0,
    });
  }
}

/**
 * A translated track's cues with the source line above each translation (a bilingual file): the source's cue of the
 * same timing as it reads now, else the text the cue was translated from. `bad_request` for an item that is no translation.
 */
export function bilingualCues(options: Record<string, unknown>, cues: readonly Cue[], sourceCues: (id: string) => Cue[]): Cue[] {
  const state = translationStateOf(options);
  if (!state) throw new AppError('bad_request', 'These subtitles are not a translation: export them without the bilingual option.');
  let source: Cue[] = [];
  try {
    source = sourceCues(state.from);
  } catch {
    // The source item was deleted: the text each cue was translated from stands in.
  }
  const byKey = new Map(source.map((c) => [key(c), c.text]));
  return cues.map((c) => {
    const above = byKey.get(key(c)) ?? state.sources[key(c)] ?? '';
    const text = [above, c.text].filter((x) => x.trim()).join('\n');
    return { start: c.start, end: c.end, text };
  });
}
