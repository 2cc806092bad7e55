/** Test helper: a completed local transcript in the library from words alone (no job, no audio). */
import type { Library } from '../../src/main/services/library/library';
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
