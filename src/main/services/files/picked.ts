/**
 * Files the user picked in this session (Electron: dropped or chosen; the
 * preload reports each path it resolves from a File), and host mode's
 * `--folder` list. A path that merely arrives over IPC is not a pick: only
 * picked files may be played from where they are; everything else is played
 * from the library's copy. Paths here are compared as given; refs.ts checks a
 * file's real path (links resolved) against them before anything reads it.
 */
import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';

export class PickedFiles {
  private readonly paths = new Set<string>();
  private readonly folders = new Set<string>();

  /**
   * `onlyPicked` (host mode, where any browser tab with the token speaks for
   * the user): a path named over IPC is accepted only when it was picked, or
   * lies inside a folder picked, this session (the same rule as /media);
   * a browser's files come as uploads instead.
   */
  constructor(readonly onlyPicked = false) {}

  add(path: string): void {
    if (typeof path === 'string' && path.length > 0 && path.length < 4096) this.paths.add(resolve(path));
  }

  /** A folder the user picked (or host mode's --folder): every file inside it counts as picked, by its name and by its real path. */
  addFolder(dir: string): void {
    if (typeof dir !== 'string' || dir.length === 0 || dir.length >= 4096) return;
    this.folders.add(resolve(dir));
    try {
      // The folder itself may be a link (/tmp on macOS): files are checked by their real path, so the folder is kept by its own too.
      this.folders.add(realpathSync(dir));
    } catch {
      // Not there (yet): its name is all there is to compare.
    }
  }

  has(path: string): boolean {
    const p = resolve(path);
    if (this.paths.has(p)) return true;
    for (const d of this.folders) if (p.startsWith(d.endsWith(sep) ? d : d + sep)) return true;
    return false;
  }

  /** Whether a path named over IPC may be read: any on the desktop (the user's own drop), only picked ones when onlyPicked. */
  allows(path: string): boolean {
    return !this.onlyPicked || this.has(path);
  }
}
