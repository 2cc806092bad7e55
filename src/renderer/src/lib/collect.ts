/**
 * What a drop or a pick contains: media files to transcribe, and the rest
 * with the reason each is skipped. Folders are walked (webkitGetAsEntry, which
 * Chromium and Electron both support). Pure classification is separate so it
 * can be tested without a DOM.
 */

import { extensionOf, mediaKindOf } from '../../../shared/media-files';

export { mediaAcceptAttribute as acceptAttribute, extensionOf } from '../../../shared/media-files';

const MAX_BYTES = 5 * 1000 ** 3;

export type Classified = { ok: true; kind: 'audio' | 'video' } | { ok: false; reason: string };

export function classify(name: string, mime: string, size: number): Classified {
  const base = name.split('/').pop() ?? name;
  if (base.startsWith('.')) return { ok: false, reason: 'Hidden system file; skipped.' };
  const ext = extensionOf(base);
  const kind: 'audio' | 'video' | null = mime.startsWith('audio/') ? 'audio' : mime.startsWith('video/') ? 'video' : mediaKindOf(base);
  if (!kind) {
    const what = ext ? `a .${ext} file` : 'a file without an extension';
    return { ok: false, reason: `Not audio or video (${what}). Pick an audio or video file such as MP3, WAV, M4A or MP4.` };
  }
  if (size === 0) return { ok: false, reason: 'The file is empty (0 bytes): there is nothing to transcribe. Pick another file.' };
  if (size > MAX_BYTES) return { ok: false, reason: 'Larger than 5 GB, the most Verbatim accepts. Trim or compress it first.' };
  return { ok: true, kind };
}

export interface Collected {
  files: Array<{ file: File; path: string }>;
  skipped: Array<{ name: string; reason: string }>;
}

export function sortFiles(list: Array<File | { file: File; path: string }>): Collected {
  const out: Collected = { files: [], skipped: [] };
  for (const x of list) {
    const { file, path } = x instanceof File ? { file: x, path: x.webkitRelativePath || x.name } : x;
    const c = classify(path, file.type, file.size);
    if (c.ok) out.files.push({ file, path });
    else out.skipped.push({ name: path, reason: c.reason });
  }
  return out;
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => {
    const all: FileSystemEntry[] = [];
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(all);
        else {
          all.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

async function walk(entry: FileSystemEntry, out: Array<{ file: File; path: string }>, skipped: Collected['skipped'], depth: number): Promise<void> {
  const path = entry.fullPath.replace(/^\//, '');
  if (entry.isFile) {
    try {
      out.push({ file: await fileOf(entry as FileSystemFileEntry), path });
    } catch {
      skipped.push({ name: path, reason: 'Could not be read (permissions?). Check the file and drop it again.' });
    }
    return;
  }
  if (!entry.isDirectory) return;
  if (depth > 12) {
    skipped.push({ name: path, reason: 'Folder nested too deep; drop it on its own.' });
    return;
  }
  const children = await readAll((entry as FileSystemDirectoryEntry).createReader());
  for (const child of children) await walk(child, out, skipped, depth + 1);
}

/**
 * Reads a drop. Must be called synchronously inside the drop handler: the
 * entries are taken at once (the DataTransfer goes dead after the event), the
 * folders are walked afterwards.
 */
export function collectDrop(dt: DataTransfer): Promise<Collected> {
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(dt.items)) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry?.();
    if (entry) entries.push(entry);
    else {
      const f = item.getAsFile();
      if (f) loose.push(f);
    }
  }
  if (entries.length === 0 && loose.length === 0) loose.push(...Array.from(dt.files));
  return (async () => {
    const found: Array<{ file: File; path: string }> = loose.map((file) => ({ file, path: file.name }));
    const skipped: Collected['skipped'] = [];
    for (const e of entries) await walk(e, found, skipped, 0);
    const sorted = sortFiles(found);
    return { files: sorted.files, skipped: [...skipped, ...sorted.skipped] };
  })();
}
