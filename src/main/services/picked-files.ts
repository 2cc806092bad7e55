/**
 * Files the user picked in this session (Electron: dropped or chosen; the
 * preload reports each path it resolves from a File). A path that merely
 * arrives over IPC is not a pick: only picked files may be played from where
 * they are (DESIGN.md §6); everything else is played from the library's copy.
 */
import { resolve } from 'node:path';

export class PickedFiles {
  private readonly paths = new Set<string>();

  add(path: string): void {
    if (typeof path === 'string' && path.length > 0 && path.length < 4096) this.paths.add(resolve(path));
  }

  has(path: string): boolean {
    return this.paths.has(resolve(path));
  }
}
