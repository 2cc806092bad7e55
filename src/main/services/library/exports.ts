/** A transcript rendered as a file (TXT, SRT, VTT, JSON) from the one edited model: words, corrections, speaker names, cue edits. */
import type { Cue, ExportFormat } from '../../../shared/library';
import { buildCues, toSrt, toVtt } from '../../../shared/captions/index';
import type { Database, LibraryContext } from './db';
import { readTranscript } from './transcripts';

export interface ExportedFile {
  filename: string;
  mime: string;
  content: string;
}

export class ExportStore {
  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
    /** The subtitle editor's cues (edited cues with corrected words taken in). */
    private readonly editedCues: (recordingId: string) => Cue[],
  ) {}

  render(recordingId: string, format: ExportFormat, charsPerCaption?: number): ExportedFile {
    const t = readTranscript(this.db, recordingId);
    const base = safeFileName(t.item.title);
    const names = new Map(t.speakers.map((s) => [s.id, s.name ?? `Speaker ${s.id}`]));
    const speakerLabel = names.size ? (id: string) => names.get(id) ?? `Speaker ${id}` : undefined;
    // Edited cues are the user's own words (with corrected words taken in); otherwise cues of one 42-character line, named at each change of speaker.
    const cues = () =>
      t.cues && charsPerCaption === undefined ? this.editedCues(recordingId) : buildCues(t.words, { charsPerCaption: charsPerCaption ?? 42, speakerLabel });
    switch (format) {
      case 'txt': {
        const paras = t.paragraphs.length ? t.paragraphs : [{ text: t.text, speaker: null }];
        const content = paras.map((p) => (p.speaker && names.has(p.speaker) ? `${names.get(p.speaker)}: ${p.text}` : p.text)).join('\n\n');
        return { filename: `${base}.txt`, mime: 'text/plain; charset=utf-8', content: `${content}\n` };
      }
      case 'srt':
        return { filename: `${base}.srt`, mime: 'application/x-subrip; charset=utf-8', content: toSrt(cues()) };
      case 'vtt':
        return { filename: `${base}.vtt`, mime: 'text/vtt; charset=utf-8', content: toVtt(cues()) };
      case 'json':
        return { filename: `${base}.json`, mime: 'application/json', content: `${JSON.stringify(t, null, 2)}\n` };
    }
  }
}

function safeFileName(title: string): string {
  const cleaned = [...title]
    .map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? ' ' : c))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
  return cleaned || 'transcript';
}
