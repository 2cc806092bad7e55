/**
 * Exports of the one edited model (words + corrections + speaker names + cue
 * edits): SRT and VTT from the cues, TXT and DOCX from the paragraphs with any
 * cue text that no longer maps onto its words put in their place, JSON of both.
 * The desktop app saves through the save dialog (temporary file, then rename).
 */
import { extname } from 'node:path';
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { AppError } from '../../../shared/errors';
import { docToVtt, toSrt, type Cue } from '../../../shared/captions/index';
import type { Transcript, Word } from '../../../shared/library';
import type { SubtitleExportFormat } from '../../../shared/subtitles';
import type { FileDialogs } from '../../platform/types';
import { writeFileAtomic } from './atomic-write';
import type { Library } from './library';
import { correctionsOf, withWords } from './subtitles';

export interface ExportFile {
  filename: string;
  mime: string;
  content: string;
  encoding: 'utf8' | 'base64';
}

const mimes: Record<SubtitleExportFormat, string> = {
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

function safeFileName(title: string): string {
  const cleaned = [...title]
    .map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? ' ' : c))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
  return cleaned || 'subtitles';
}

function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
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

export interface Paragraph_ {
  speaker: string | null;
  start: number;
  text: string;
}

/** The transcript's paragraphs as the user last left them: corrected words, named speakers, edited cue text. */
export function editedParagraphs(t: Transcript, cues: readonly Cue[]): Paragraph_[] {
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

export class SubtitleExporter {
  constructor(
    private readonly library: Library,
    private readonly dialogs: FileDialogs | null,
  ) {}

  async export(recordingId: string, format: SubtitleExportFormat, opts: { voices?: boolean } = {}): Promise<ExportFile> {
    const { cues, header, trailer } = this.library.subtitles.cues(recordingId);
    const base = safeFileName(this.library.recordings.item(recordingId).title);
    const file = (content: string, encoding: 'utf8' | 'base64' = 'utf8'): ExportFile => ({
      filename: `${base}.${format}`,
      mime: mimes[format],
      content,
      encoding,
    });
    // SRT and VTT need only the cues: the whole transcript is read for the other formats (and for speaker names).
    if (format === 'srt') return file(toSrt(cues));
    if (format === 'vtt' && !opts.voices) return file(docToVtt({ cues, header, trailer }));
    const t = this.library.transcripts.get(recordingId);
    const names = new Map(t.speakers.map((s) => [s.id, s.name ?? `Speaker ${s.id}`]));
    switch (format) {
      case 'vtt':
        return file(docToVtt({ cues, header, trailer }, (s) => names.get(s) ?? `Speaker ${s}`));
      case 'txt':
        return file(
          `${editedParagraphs(t, cues)
            .map((p) => (p.speaker ? `${p.speaker}: ${p.text}` : p.text))
            .join('\n\n')}\n`,
        );
      case 'json':
        return file(
          `${JSON.stringify({ ...t, paragraphs: t.paragraphs.map((p, i) => ({ ...p, text: editedParagraphs(t, cues)[i]?.text ?? p.text })), cues }, null, 2)}\n`,
        );
      case 'docx': {
        const doc = new Document({
          title: t.item.title,
          creator: 'Verbatim',
          sections: [
            {
              children: [
                new Paragraph({ text: t.item.title, heading: HeadingLevel.TITLE }),
                ...editedParagraphs(t, cues).map(
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
        return file((await Packer.toBuffer(doc)).toString('base64'), 'base64');
      }
    }
  }

  /** Desktop: asks where to save, writes a temporary file and renames it over the target. Null when the user cancels. */
  async save(recordingId: string, format: SubtitleExportFormat, opts: { voices?: boolean } = {}): Promise<string | null> {
    if (!this.dialogs) throw new AppError('unavailable', 'Save dialogs exist only in the desktop app; in a browser, exports are downloads.');
    const out = await this.export(recordingId, format, opts);
    const path = await this.dialogs.saveFile({
      title: 'Export subtitles',
      defaultName: out.filename,
      filters: [{ name: format.toUpperCase(), extensions: [format] }],
    });
    if (path === null) return null;
    const target = extname(path) ? path : `${path}.${format}`;
    try {
      await writeFileAtomic(target, out.encoding === 'base64' ? Buffer.from(out.content, 'base64') : out.content);
    } catch (e) {
      const reason = (e as NodeJS.ErrnoException).code === 'EACCES' ? 'Verbatim may not write there' : e instanceof Error ? e.message : String(e);
      throw new AppError('file_unreadable', `Could not save ${target}: ${reason}. Pick another folder.`);
    }
    return target;
  }
}
