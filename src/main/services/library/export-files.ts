/**
 * The one saver of exported files (the library's and the Subtitles view's),
 * through the desktop's own dialogs: one file asks where to save it, several
 * ask for a folder and each gets its own file there; each is written
 * atomically, and only files saved here may be revealed in their folder.
 * Host mode has no dialogs; its renderer downloads the export instead.
 */
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { ExportFormat } from '../../../shared/library';
import type { FileDialogs, FileFilter } from '../../platform/types';
import type { ExportFile, ExportOptions } from './exports';
import { writeFileAtomic } from './atomic-write';
import type { Library } from './library';

const filters: Record<ExportFormat, FileFilter> = {
  txt: { name: 'Text', extensions: ['txt'] },
  srt: { name: 'SubRip subtitles', extensions: ['srt'] },
  vtt: { name: 'WebVTT subtitles', extensions: ['vtt'] },
  json: { name: 'JSON', extensions: ['json'] },
  docx: { name: 'Word document', extensions: ['docx'] },
  md: { name: 'Markdown', extensions: ['md'] },
};

export interface SaveResult {
  /** The user closed the dialog: nothing was written. */
  canceled: boolean;
  files: { id: string; path: string }[];
  errors: { id: string; message: string }[];
}

export class ExportSaver {
  /** Only files saved here may be revealed: the renderer never names arbitrary paths. */
  private readonly saved = new Set<string>();

  constructor(
    private readonly library: Library,
    private readonly dialogs: FileDialogs | null,
  ) {}

  /** Saves each recording's export (`title`: the save dialog's, for one file); nothing is written when the user cancels. */
  async save(ids: string[], format: ExportFormat, opts: ExportOptions = {}, title = 'Export transcript'): Promise<SaveResult> {
    const dialogs = this.need();
    const result: SaveResult = { canceled: false, files: [], errors: [] };
    if (ids.length === 1) {
      const id = ids[0]!;
      const out = await this.library.exports.file(id, format, opts);
      const path = await dialogs.saveFile({ title, defaultName: out.filename, filters: [filters[format]] });
      if (path === null) return { ...result, canceled: true };
      const target = extname(path) ? path : `${path}.${format}`;
      await this.write(target, bytesOf(out), id, result);
      return result;
    }
    const dir = await dialogs.pickFolder({ title: `Export ${ids.length} transcripts`, buttonLabel: 'Export here' });
    if (dir === null) return { ...result, canceled: true };
    const taken = new Set<string>();
    for (const id of ids) {
      let out: ExportFile;
      try {
        out = await this.library.exports.file(id, format, opts);
      } catch (e) {
        result.errors.push({ id, message: e instanceof Error ? e.message : String(e) });
        continue;
      }
      const path = freeName(dir, out.filename, taken);
      taken.add(path);
      await this.write(path, bytesOf(out), id, result);
    }
    return result;
  }

  reveal(path: string): void {
    if (!this.saved.has(path)) throw new AppError('forbidden', 'Verbatim only shows files it saved itself.');
    this.need().reveal(path);
  }

  private async write(path: string, content: string | Buffer, id: string, result: SaveResult): Promise<void> {
    try {
      await writeFileAtomic(path, content);
      this.saved.add(path);
      result.files.push({ id, path });
    } catch (e) {
      const reason = (e as NodeJS.ErrnoException).code === 'EACCES' ? 'Verbatim may not write there' : e instanceof Error ? e.message : String(e);
      result.errors.push({ id, message: `Could not save ${path}: ${reason}. Pick another folder.` });
    }
  }

  private need(): FileDialogs {
    if (!this.dialogs) throw new AppError('unavailable', 'Save dialogs exist only in the desktop app; in a browser, exports are downloads.');
    return this.dialogs;
  }
}

function bytesOf(f: ExportFile): string | Buffer {
  return f.encoding === 'base64' ? Buffer.from(f.content, 'base64') : f.content;
}

/** "name.srt", else "name (2).srt", … : never overwrite a file already there or saved in this batch. */
function freeName(dir: string, filename: string, taken: Set<string>): string {
  const ext = extname(filename);
  const stem = filename.slice(0, filename.length - ext.length);
  for (let n = 1; ; n++) {
    const p = join(dir, n === 1 ? filename : `${stem} (${n})${ext}`);
    if (!taken.has(p) && !existsSync(p)) return p;
  }
}
