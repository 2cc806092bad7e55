/**
 * Host mode's stack traces name src/… (the file and line a developer edits), reading a bundle's source
 * map only when a trace from that bundle is first written. Node's --enable-source-maps gave the same
 * traces but read and parsed the map of every file host mode loads, as it loads it: ~7 ms of every
 * cold start (issue 52), for traces that are rare. Frames of other files (Node's own, packages) and
 * frames a map does not cover are written as V8 writes them.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * From now on, a stack trace's frames in files below `dir` (the bundles, with their `.map` beside
 * them: scripts/build-host.mjs writes linked maps) name the original source, line and column.
 * Nothing changes where Node maps traces itself already (--enable-source-maps, or tsx).
 */
export function installLazyStackMaps(dir: string): void {
  if (process.sourceMapsEnabled) return;
  const maps = new LazyMaps(dir);
  Error.prepareStackTrace = (err: unknown, frames: NodeJS.CallSite[]) => {
    let text = heading(err);
    for (const frame of frames) text += `\n    at ${maps.frame(frame)}`;
    return text;
  };
}

/** The first line of a trace, as V8 writes it: `Name: message`. */
function heading(err: unknown): string {
  try {
    return Error.prototype.toString.call(err);
  } catch {
    return 'Error';
  }
}

export class LazyMaps {
  private readonly dirPath: string;
  private readonly dirUrl: string;
  /** Each bundle's map, read on first need; null where it has none or it cannot be read. */
  private readonly maps = new Map<string, { map: SourceMap; folder: string } | null>();

  constructor(dir: string) {
    this.dirPath = resolve(dir);
    this.dirUrl = pathToFileURL(this.dirPath).href;
  }

  /** One frame's text, its place mapped to the source where the bundle's map says. */
  frame(frame: NodeJS.CallSite): string {
    const text = frame.toString();
    try {
      const file = frame.getFileName();
      const line = frame.getLineNumber();
      const column = frame.getColumnNumber();
      if (!file || line === null || column === null) return text;
      const place = `${file}:${line}:${column}`;
      if (!text.includes(place)) return text;
      const mapped = this.mapFor(file);
      if (!mapped) return text;
      const origin = mapped.map.findOrigin(line, column);
      if (!('fileName' in origin)) return text;
      return text.replace(place, `${resolve(mapped.folder, origin.fileName)}:${origin.lineNumber}:${origin.columnNumber}`);
    } catch {
      return text;
    }
  }

  private mapFor(file: string): { map: SourceMap; folder: string } | null {
    const cached = this.maps.get(file);
    if (cached !== undefined) return cached;
    let path: string | null = null;
    if (file.startsWith(`${this.dirUrl}/`)) path = fileURLToPath(file);
    else if (file.startsWith(this.dirPath + sep)) path = file;
    let mapped: { map: SourceMap; folder: string } | null = null;
    if (path) {
      try {
        mapped = { map: new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8'))), folder: dirname(path) };
      } catch {
        mapped = null;
      }
    }
    this.maps.set(file, mapped);
    return mapped;
  }
}
