/**
 * Exports of the Subtitles view from the one edited model (words +
 * corrections + speaker names + cue edits): SRT and VTT from the cues with the
 * file's own header and notes; TXT, JSON and DOCX through the library's
 * exports (paragraphs with edited cue text in place). The desktop app saves
 * through the save dialog (temporary file, then rename).
 */
import { extname } from 'node:path';
import { AppError } from '../../../shared/errors';
import { docToVtt, toSrt } from '../../../shared/subtitles/index';
import type { SubtitleExportFormat } from '../../../shared/subtitles/schema';
import type { FileDialogs } from '../../platform/types';
import { writeFileAtomic } from './atomic-write';
import { exportMimes, safeFileName, type ExportFile } from './exports';
import type { Library } from './library';

export type { ExportFile } from './exports';

export class SubtitleExporter {
  constructor(
    private readonly library: Library,
    private readonly dialogs: FileDialogs | null,
  ) {}

  async export(recordingId: string, format: SubtitleExportFormat, opts: { voices?: boolean } = {}): Promise<ExportFile> {
    // Text, JSON and Word documents are the library's exports of the same model.
    if (format === 'txt' || format === 'json' || format === 'docx') return this.library.exports.file(recordingId, format);
    const { cues, header, trailer } = this.library.subtitles.cues(recordingId);
    const file = (content: string): ExportFile => ({
      filename: `${safeFileName(this.library.recordings.item(recordingId).title, 'subtitles')}.${format}`,
      mime: exportMimes[format],
      content,
      encoding: 'utf8',
    });
    if (format === 'srt') return file(toSrt(cues));
    if (!opts.voices) return file(docToVtt({ cues, header, trailer }));
    // Voice tags need the speakers' names: the whole transcript is read only then.
    const t = this.library.transcripts.get(recordingId);
    const names = new Map(t.speakers.map((s) => [s.id, s.name ?? `Speaker ${s.id}`]));
    return file(docToVtt({ cues, header, trailer }, (s) => names.get(s) ?? `Speaker ${s}`));
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
