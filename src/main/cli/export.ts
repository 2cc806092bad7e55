/** `verbatim export ID...|--all --format F --out DIR`: through the one export pipeline, into a folder. */
import { resolve } from 'node:path';
import type { Library } from '../services/library/library';
import { CliError, type Values, usageError } from './errors';
import { dataDirOf, inUse, openLibrary } from './session';
import { parseFormats, writeExport } from './write-export';

/** Every finished transcript's recording, oldest first, a page at a time. */
function allFinished(library: Library): string[] {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = library.recordings.list({ status: ['completed'], limit: 500, sort: 'created', order: 'asc', offset }).items;
    ids.push(...page.map((i) => i.id));
    if (page.length < 500) return ids;
  }
}

export async function exportCommand(values: Values, positionals: string[]): Promise<number> {
  const formats = parseFormats(values.format as string | undefined, 'export');
  if (formats.length !== 1) throw usageError('Name one format with --format (srt, vtt, txt, md, json or docx)', 'export');
  if (!values.out) throw usageError('Name the folder to write into with --out DIR', 'export');
  if (values.all && positionals.length) throw usageError('Name recordings or --all, not both', 'export');
  if (!values.all && !positionals.length) throw usageError('Name the recordings to export (their ids, as verbatim search shows them) or --all', 'export');
  const dataDir = dataDirOf(values.data as string | undefined);
  const library = await openLibrary(dataDir);
  const outDir = resolve(values.out as string);
  try {
    const ids = values.all ? allFinished(library) : positionals;
    if (values.all && ids.length === 0) throw new CliError(`There are no finished transcripts in ${dataDir}.`);
    const used = new Set<string>();
    let failed = 0;
    for (const id of ids) {
      try {
        const path = await writeExport(library, id, formats[0]!, outDir, used);
        process.stdout.write(`${path}\n`);
      } catch (e) {
        const busy = inUse(dataDir, e);
        if (busy) throw busy;
        failed++;
        process.stderr.write(`verbatim: ${id}: ${e instanceof Error ? e.message : String(e)}\n`);
      }
    }
    return failed ? 1 : 0;
  } finally {
    library.close();
  }
}
