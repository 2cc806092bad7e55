/** Test helpers: a transcript completed from words alone (no job, no audio), a new one or one the test made; a cue edit committed as the Subtitles view commits it. */
import type { Library } from '../../src/main/services/library/library';
import type { SubtitleCommand } from '../../src/main/services/library/subtitles';
import { toRanges } from '../../src/shared/subtitles/cue-columns';
import type { Cue, EditorState } from '../../src/shared/subtitles/index';
import type { Word } from '../../src/shared/library';

/** Completes the transcript `transcriptId` with `words` (its text is theirs; duration: 500 ms past the last word unless given). */
export function completeWith(
  lib: Library,
  transcriptId: string,
  words: Word[],
  more: { remoteId?: string | null; language?: string; durationMs?: number | null; model?: string } = {},
): void {
  lib.transcripts.complete(transcriptId, {
    remoteId: more.remoteId ?? null,
    text: words.map((w) => w.text).join(' '),
    words,
    sentences: null,
    paragraphs: null,
    confidence: 0.9,
    language: more.language ?? 'en_us',
    model: more.model ?? 'test',
    durationMs: more.durationMs === undefined ? (words.at(-1)?.end ?? 0) + 500 : more.durationMs,
  });
}

export function addCompleted(
  lib: Library,
  title: string,
  words: Word[],
  more: { remoteId?: string | null; language?: string; durationMs?: number | null; sizeBytes?: number; region?: 'us' | 'eu' | 'local'; model?: string } = {},
): { recordingId: string; transcriptId: string } {
  const ids = lib.recordings.add({
    title,
    source: `${title}.wav`,
    sourceKind: 'file',
    sizeBytes: more.sizeBytes ?? 1,
    region: more.region ?? 'local',
    baseUrl: null,
    options: {},
  });
  completeWith(lib, ids.transcriptId, words, more);
  return ids;
}

/** Runs one editor command in the library as the Subtitles view sends it (subtitles.run: its name, argument and view; playhead at 0); answers the stored cues. */
export function commitCueEdit<A>(
  lib: Library,
  recordingId: string,
  cmd: { name: string; perform(s: EditorState, a: A): { cues: Cue[] } | null },
  arg: A,
  selection = [0],
  caret: number | null = null,
): Cue[] {
  const doc = lib.subtitles.open(recordingId);
  const edit = { command: cmd.name, args: arg, view: { selection: toRanges(selection), caret, playheadMs: 0 } } as SubtitleCommand;
  lib.subtitles.run(recordingId, doc.version, edit);
  return lib.subtitles.open(recordingId).cues;
}
