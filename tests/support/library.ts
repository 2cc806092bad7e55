/** Test helpers: a completed local transcript in the library from words alone (no job, no audio); a cue edit committed as the Subtitles view commits it. */
import type { Library } from '../../src/main/services/library/library';
import { builtInProfiles, diffCues, type Cue, type EditorState } from '../../src/shared/subtitles/index';
import type { Word } from '../../src/shared/library';

export function addCompleted(
  lib: Library,
  title: string,
  words: Word[],
  more: { remoteId?: string | null; language?: string; durationMs?: number | null; sizeBytes?: number } = {},
): { recordingId: string; transcriptId: string } {
  const ids = lib.recordings.add({
    title,
    source: `${title}.wav`,
    sourceKind: 'file',
    sizeBytes: more.sizeBytes ?? 1,
    region: 'local',
    baseUrl: null,
    options: {},
  });
  lib.transcripts.complete(ids.transcriptId, {
    remoteId: more.remoteId ?? null,
    text: words.map((w) => w.text).join(' '),
    words,
    sentences: null,
    paragraphs: null,
    confidence: 0.9,
    language: more.language ?? 'en_us',
    model: 'test',
    durationMs: more.durationMs === undefined ? (words.at(-1)?.end ?? 0) + 500 : more.durationMs,
  });
  return ids;
}

/** Runs one editor command on a recording's current cues (Netflix-like profile, playhead at 0) and commits it under its label as the view does; answers the new cues. */
export function commitCueEdit<A>(
  lib: Library,
  recordingId: string,
  cmd: { name: string; label?: string; perform(s: EditorState, a: A): { cues: Cue[] } | null },
  arg: A,
  selection = [0],
  caret: number | null = null,
): Cue[] {
  const doc = lib.subtitles.open(recordingId);
  const words = lib.transcripts.get(recordingId).words;
  const r = cmd.perform({ cues: doc.cues, selection, caret, playheadMs: 0, words, profile: builtInProfiles[0]! }, arg)!;
  lib.subtitles.commit(recordingId, doc.version, cmd.label ?? cmd.name, diffCues(doc.cues, r.cues)!);
  return r.cues;
}
