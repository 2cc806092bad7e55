/**
 * The one export pipeline: every file Verbatim exports (TXT, SRT, VTT, JSON,
 * DOCX, Markdown with front matter: markdown.ts), from the library and from the Subtitles view alike, is made here from
 * the one edited model: words, corrections, speaker names, and the cues the
 * editor shows (its edits, else built from the words by its rules profile).
 */
import type { ExportFormat, Transcript, Word } from '../../../shared/library';
import { buildCuesWith, docToVtt, toSrt, toVtt, type Cue, type CueDoc, type RulesProfile } from '../../../shared/subtitles/index';
import type { Database, LibraryContext } from './db';
import { correctionsOf, withWords } from './cue-words';
import { readTranscript } from './transcripts';
import { liveCaptionCues, LiveExtrasStore } from './live-extras';
import { AppError } from '../../../shared/errors';
import { InsightStore } from './insights';
import { toMarkdown } from './markdown';
import { bilingualCues } from './subtitle-translations';

export interface ExportedFile {
  filename: string;
  mime: string;
  content: string;
}

/** A file of any format: text, or base64 for DOCX. */
export interface ExportFile extends ExportedFile {
  encoding: 'utf8' | 'base64';
}

export type TextExportFormat = Exclude<ExportFormat, 'docx'>;

export const exportMimes: Record<ExportFormat, string> = {
  txt: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  json: 'application/json',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  md: 'text/markdown; charset=utf-8',
};

/** How an export is made; with no options, SRT and VTT are exactly what the Subtitles view exports. */
export interface ExportOptions {
  /** Rebuild the cues from the words with lines of at most this many characters (by the recording's rules profile), ignoring cue edits. */
  rebuildCharsPerLine?: number;
  /** VTT: name speakers with `<v Name>` voice tags. */
  voices?: boolean;
  /** SRT/VTT of a live session: its translated lines instead of the original, or both, one cue a turn (liveCaptionCues). */
  captionText?: 'original' | 'translation' | 'both';
  /** SRT/VTT of a translated subtitle track: each cue with its source line above the translation. */
  bilingual?: boolean;
}

/** The editor's document of a recording: its cues (edited, else built by its profile), WebVTT header and notes, and the profile. */
export interface EditorCues extends CueDoc {
  trailer: string[];
  profile: RulesProfile;
}

export interface EditedParagraph {
  speaker: string | null;
  start: number;
  text: string;
}

export class ExportStore {
  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
    /** The subtitle editor's document (edited cues with corrected words taken in; built by the profile when never edited). */
    private readonly editorCues: (recordingId: string, known?: { transcriptId: string; words: Word[] }) => EditorCues,
  ) {}

  private editedCues(recordingId: string, t?: Transcript): Cue[] {
    return this.editorCues(recordingId, t && { transcriptId: t.transcriptId, words: t.words }).cues;
  }

  render(recordingId: string, format: TextExportFormat, opts: ExportOptions = {}): ExportedFile {
    const t = readTranscript(this.db, recordingId);
    const base = safeFileName(t.item.title);
    const names = new Map(t.speakers.map((s) => [s.id, s.name ?? `Speaker ${s.id}`]));
    const speakerName = names.size ? (id: string) => names.get(id) ?? `Speaker ${id}` : undefined;
    // The editor's cues, as the Subtitles view shows them; a rebuild makes them afresh from the words with another line length.
    const doc = (): EditorCues => {
      // The words read above are the cues' too: decoding a 30,000-word transcript again cost ~10 ms of an export.
      const d = this.editorCues(recordingId, { transcriptId: t.transcriptId, words: t.words });
      if (opts.bilingual) return { ...d, cues: bilingualCues(t.options, d.cues, (id) => this.editorCues(id).cues) };
      if (opts.rebuildCharsPerLine === undefined) return d;
      return { ...d, cues: buildCuesWith(t.words, { ...d.profile, maxCharsPerLine: opts.rebuildCharsPerLine }) };
    };
    const file = (content: string): ExportedFile => ({ filename: `${base}.${format}`, mime: exportMimes[format], content });
    switch (format) {
      case 'txt':
        return file(
          `${this.paragraphs(recordingId, t)
            .map((p) => (p.speaker ? `${p.speaker}: ${p.text}` : p.text))
            .join('\n\n')}\n`,
        );
      case 'srt':
        if (opts.captionText && opts.captionText !== 'original') return file(toSrt(this.liveCues(recordingId, opts.captionText)));
        // Names at each change of speaker: SubRip has no voice tags.
        return file(toSrt(doc().cues, { speakerLabel: speakerName }));
      case 'vtt':
        if (opts.captionText && opts.captionText !== 'original') return file(toVtt(this.liveCues(recordingId, opts.captionText)));
        // The file's own STYLE, REGION and NOTE blocks are kept.
        return file(docToVtt(doc(), opts.voices ? (speakerName ?? ((id: string) => `Speaker ${id}`)) : undefined));
      case 'md':
        // Front matter, the saved summary and action items, then the paragraphs as the user left them.
        return file(toMarkdown(t, this.paragraphs(recordingId, t), new InsightStore(this.db).list(t.transcriptId)));
      case 'json': {
        const paras = this.paragraphs(recordingId, t);
        const current = this.editedCues(recordingId, t);
        return file(
          `${JSON.stringify({ ...t, paragraphs: t.paragraphs.map((p, i) => ({ ...p, text: paras[i]?.text ?? p.text })), cues: current }, null, 2)}\n`,
        );
      }
    }
  }

  /** A live session's turns as cues with their translation (under the original with `both`). */
  private liveCues(recordingId: string, text: 'translation' | 'both'): Cue[] {
    const rows = new LiveExtrasStore(this.db).translations(recordingId);
    if (!rows.length) throw new AppError('bad_request', 'This session has no translated lines: export the original captions instead.');
    return liveCaptionCues(rows, text);
  }

  /** Any format as a file; DOCX as base64. */
  async file(recordingId: string, format: ExportFormat, opts: ExportOptions = {}): Promise<ExportFile> {
    if (format !== 'docx') return { ...this.render(recordingId, format, opts), encoding: 'utf8' };
    const t = readTranscript(this.db, recordingId);
    return {
      filename: `${safeFileName(t.item.title)}.docx`,
      mime: exportMimes.docx,
      content: (await this.docx(recordingId, t)).toString('base64'),
      encoding: 'base64',
    };
  }

  /** A Word document: the title, then each paragraph with its time and speaker, as edited. */
  async docx(recordingId: string, t: Transcript = readTranscript(this.db, recordingId)): Promise<Buffer> {
    // Loaded on the first DOCX export, not at start: docx is 1 MB of code (issue 29, host-mode cold start).
    const { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } = await import('docx');
    const doc = new Document({
      title: t.item.title,
      creator: 'Verbatim',
      sections: [
        {
          children: [
            new Paragraph({ text: t.item.title, heading: HeadingLevel.TITLE }),
            ...this.paragraphs(recordingId, t).map(
              (p) =>
                new Paragraph({
                  alignment: AlignmentType.LEFT,
                  spacing: { after: 160 },
                  children: [
                    new TextRun({ text: `[${clock(p.start)}] `, color: '666666' }),
                    ...(p.speaker ? [new TextRun({ text: `${p.speaker}: `, bold: true })] : []),
                    new TextRun(p.text),
                  ],
                }),
            ),
          ],
        },
      ],
    });
    return Packer.toBuffer(doc);
  }

  /** The paragraphs as the user last left them; cue text only matters once the cues were edited. */
  private paragraphs(recordingId: string, t: Transcript): EditedParagraph[] {
    const paras = t.paragraphs.length ? t.paragraphs : [];
    if (!paras.length) return [{ speaker: null, start: t.words[0]?.start ?? 0, text: t.text }];
    return editedParagraphs(t, t.cues ? this.editedCues(recordingId, t) : []);
  }
}

/** Cue text in place of the words it covers, where the cue was edited beyond one token per word. */
function overrides(cues: readonly Cue[], words: readonly Word[]): Map<number, { last: number; text: string }> {
  const out = new Map<number, { last: number; text: string }>();
  for (const c of cues) {
    if (!c.words) continue;
    const current = withWords(c, words);
    const own = current.text
      .replace(/<[^>]*>/g, '')
      .replace(/^- /gm, '')
      .replace(/\s+/g, ' ')
      .trim();
    const fromWords = words
      .slice(c.words[0], c.words[1] + 1)
      .map((w) => w.text)
      .join(' ');
    if (own !== fromWords && correctionsOf(current, words).length === 0) out.set(c.words[0], { last: c.words[1], text: own });
  }
  return out;
}

/** The transcript's paragraphs as the user last left them: corrected words, named speakers, edited cue text. */
export function editedParagraphs(t: Transcript, cues: readonly Cue[]): EditedParagraph[] {
  const names = new Map(t.speakers.map((s) => [s.id, s.name ?? `Speaker ${s.id}`]));
  const over = overrides(cues, t.words);
  let skipTo = -1;
  return t.paragraphs.map((p) => {
    const parts: string[] = [];
    for (let i = p.firstWord; i <= p.lastWord; i++) {
      if (i <= skipTo) continue;
      const o = over.get(i);
      if (o) {
        parts.push(o.text);
        skipTo = o.last;
      } else parts.push(t.words[i]?.text ?? '');
    }
    return {
      speaker: p.speaker !== null && t.speakers.length > 0 ? (names.get(p.speaker) ?? `Speaker ${p.speaker}`) : null,
      start: p.start,
      text: parts.join(' '),
    };
  });
}

function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

export function safeFileName(title: string, fallback = 'transcript'): string {
  const cleaned = [...title]
    .map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? ' ' : c))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
  return cleaned || fallback;
}
