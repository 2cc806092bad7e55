/** Writes a transcript through the one export pipeline into a folder: a whole file or none (temporary name, then rename). */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { exportFormatSchema, type ExportFormat } from '../../shared/library';
import { writeFileAtomic } from '../services/library/atomic-write';
import type { Library } from '../services/library/library';
import { usageError } from './errors';

/** `--format` values: repeated or comma-separated; each one of the pipeline's formats. */
export function parseFormats(values: readonly string[] | string | undefined, command: string): ExportFormat[] {
  const list = (Array.isArray(values) ? values : values === undefined ? [] : [values]).flatMap((v: string) => v.split(','));
  const out: ExportFormat[] = [];
  for (const raw of list) {
    const f = raw.trim().toLowerCase();
    if (!f) continue;
    const ok = exportFormatSchema.safeParse(f === 'markdown' ? 'md' : f);
    if (!ok.success) throw usageError(`“${raw}” is not a format Verbatim writes: use srt, vtt, txt, md, json or docx`, command);
    if (!out.includes(ok.data)) out.push(ok.data);
  }
  return out;
}

/** Names already written in this run: a second transcript with the same title gets “ (2)”. */
export async function writeExport(library: Library, recordingId: string, format: ExportFormat, outDir: string, used: Set<string>): Promise<string> {
  const file = await library.exports.file(recordingId, format);
  await mkdir(outDir, { recursive: true });
  const ext = extname(file.filename);
  const stem = file.filename.slice(0, file.filename.length - ext.length);
  let path = join(outDir, file.filename);
  for (let n = 2; used.has(path); n++) path = join(outDir, `${stem} (${n})${ext}`);
  used.add(path);
  await writeFileAtomic(path, file.encoding === 'base64' ? Buffer.from(file.content, 'base64') : file.content);
  return path;
}

export function existsDir(p: string): boolean {
  return existsSync(p);
}
