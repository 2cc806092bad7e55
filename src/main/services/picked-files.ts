/**
 * Files the user picked in this session (Electron: dropped or chosen; the
 * preload reports each path it resolves from a File). A path that merely
 * arrives over IPC is not a pick: only picked files may be played from where
 * they are (DESIGN.md §6); everything else is played from the library's copy.
 */
import { resolve, sep } from 'node:path';

export class PickedFiles {
  private readonly paths = new Set<string>();
  private readonly folders = new Set<string>();

  /**
   * `onlyPicked` (host mode, where any browser tab with the token speaks for
   * the user): a path named over IPC is accepted only when it was picked, or
   * lies inside a folder picked, this session (the same rule as /media);
   * uploads go through jobs.addUpload instead.
   */
  constructor(readonly onlyPicked = false) {}

  add(path: string): void {
    if (typeof path === 'string' && path.length > 0 && path.length < 4096) this.paths.add(resolve(path));
  }

  /** A folder the user picked: every file inside it counts as picked. */
  addFolder(dir: string): void {
    if (typeof dir === 'string' && dir.length > 0 && dir.length < 4096) this.folders.add(resolve(dir));
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
