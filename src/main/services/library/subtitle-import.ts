/**
 * A subtitle file as a new library item: its cues become the words (each
 * cue's time shared among its words by length), so the item reads, searches
 * and exports like any transcript, and the file's cues, header and notes are
 * kept as its subtitles. Its video or audio, when given, is copied in beside them.
 */
import { AppError } from '../../../shared/errors';
import { cueDisplayText, parseSubtitles, type Cue, type ParseProblem } from '../../../shared/subtitles/index';
import type { Word } from '../../../shared/library';
import type { Library } from './library';
import type { LibraryOffload } from './library-offload';
import { subtitleText, type SubtitleText } from './subtitle-text';
import { CUE_LIMITS, cutLongLines, fitBlocks, fitCues } from '../../../shared/subtitles/limits';

/** The words a viewer reads: tags hidden and entities decoded (the cue keeps the file's text). */
const tokens = (text: string): string[] =>
  cueDisplayText(text)
    .split(/\s+/)
    .filter((t) => t && t !== '-');

/** Words spread over each cue's time by their length; cues get their word ranges. */
export function wordsFromCues(cues: readonly Cue[]): { words: Word[]; cues: Cue[] } {
  const words: Word[] = [];
  const out: Cue[] = [];
  for (const c of cues) {
    const ts = tokens(c.text);
    if (!ts.length) {
      out.push(c);
      continue;
    }
    const total = ts.reduce((n, t) => n + t.length + 1, 0);
    let at = c.start;
    const first = words.length;
    for (const t of ts) {
      const end = Math.min(c.end, Math.round(at + ((c.end - c.start) * (t.length + 1)) / total));
      words.push({ text: t, start: Math.round(at), end: Math.max(Math.round(at) + 1, end), confidence: 1, speaker: null });
      at = end;
    }
    // Tags or other markup keep the cue's own text; its words still map one to one.
    out.push({ ...c, words: [first, words.length - 1] });
  }
  return { words, cues: out };
}

export interface ImportedCues {
  id: string;
  problems: ParseProblem[];
  cues: number;
}
type Media = { path: string; name: string; move: boolean } | null;

/**
 * `media`: the item's video or audio (already checked by the caller), put
 * into the library's audio folder; when that fails, nothing is added.
 */
export function importSubtitlesAsItem(
  library: Library,
  name: string,
  content: string,
  media: Media = null,
): { id: string; problems: ParseProblem[]; cues: number; media: string | null } {
  return withMedia(library, importCuesAsItem(library, name, content, media?.name ?? name), media);
}

/** The same, with the reading, parsing and storing on the library's worker thread (library-offload.ts): 200,000 cues never hold the event loop. */
export async function importSubtitlesOffThread(
  library: Library,
  offload: LibraryOffload,
  name: string,
  text: SubtitleText,
  media: Media = null,
): Promise<{ id: string; problems: ParseProblem[]; cues: number; media: string | null }> {
  const source = media?.name ?? name;
  return withMedia(library, await offload.importSubtitles(name, text, source, () => importCuesAsItem(library, name, subtitleText(text), source)), media);
}

/** The cues parsed, fitted and stored as a new item (no media, no change event yet); `source` is the name the item shows. */
export function importCuesAsItem(library: Library, name: string, content: string, source: string): ImportedCues {
  // Limits at the door: an over-long line is cut before the parser sees it, and the cues are fitted to what subtitles.open can send back.
  const door = cutLongLines(content);
  const parsed = parseSubtitles(door.content);
  for (const c of door.cut)
    parsed.problems.push({
      line: c.line,
      message: `Line ${c.line} has ${c.chars.toLocaleString('en')} characters; it was cut to ${CUE_LIMITS.lineChars.toLocaleString('en')} (a cue keeps at most ${CUE_LIMITS.textChars.toLocaleString('en')}).`,
    });
  if (parsed.doc.cues.length > CUE_LIMITS.cues)
    throw new AppError(
      'bad_request',
      `${name} has ${parsed.doc.cues.length.toLocaleString('en')} cues; Verbatim keeps at most ${CUE_LIMITS.cues.toLocaleString('en')} in one item. Split the file and import the parts. Nothing was added.`,
    );
  const fitted = fitCues(parsed.doc.cues);
  for (const m of fitted.messages) parsed.problems.push({ line: 0, message: m });
  parsed.doc = { ...parsed.doc, cues: fitted.cues, header: fitBlocks(parsed.doc.header), trailer: fitBlocks(parsed.doc.trailer ?? []) };
  if (parsed.doc.cues.length === 0) {
    const first = parsed.problems[0];
    throw new AppError(
      'bad_request',
      first ? `${name} has no cue Verbatim could read. ${first.message}` : `${name} has no subtitles in it (no "start --> end" lines).`,
    );
  }
  const { words, cues } = wordsFromCues(parsed.doc.cues);
  const title = name.replace(/\.(srt|vtt)$/i, '') || 'Imported subtitles';
  const last = parsed.doc.cues[parsed.doc.cues.length - 1]!;
  const { recordingId, transcriptId } = library.recordings.add({
    title,
    // The media's name when there is one: the player tells a video by it.
    source,
    sourceKind: 'import',
    sizeBytes: Buffer.byteLength(content),
    durationMs: last.end,
    region: 'local',
    baseUrl: null,
    options: { importedFrom: parsed.format },
  });
  library.transcripts.complete(transcriptId, {
    remoteId: null,
    text: words.map((w) => w.text).join(' '),
    words,
    sentences: null,
    paragraphs: null,
    confidence: null,
    language: null,
    model: `imported ${parsed.format.toUpperCase()}`,
    durationMs: last.end,
  });
  library.subtitles.save(
    recordingId,
    0,
    `Import ${name}`,
    { at: 0, remove: library.subtitles.cues(recordingId).cues, insert: cues },
    { header: parsed.doc.header, trailer: parsed.doc.trailer ?? [] },
  );
  return { id: recordingId, problems: parsed.problems, cues: cues.length };
}

function withMedia(library: Library, r: ImportedCues, media: Media): ImportedCues & { media: string | null } {
  const recordingId = r.id;
  if (media) {
    try {
      library.audio.attach(recordingId, media.path, 'original', { move: media.move, name: media.name });
    } catch (e) {
      library.recordings.delete([recordingId]);
      throw new AppError(
        'file_unreadable',
        `“${media.name}” could not be copied into the library (${e instanceof Error ? e.message : String(e)}). Check the disk has room, then import again. Nothing was added.`,
        { cause: e },
      );
    }
  }
  library.context.changed([recordingId], 'added');
  return { ...r, media: media?.name ?? null };
}
