/** `verbatim search QUERY [--said-by NAME] [--json]`: hits with the recording, the moment and the sentence. */
import { type Values, usageError } from './errors';
import { searchLibrary } from './queries';
import { busyAsInUse, dataDirOf, openLibrary } from './session';

export async function searchCommand(values: Values, positionals: string[]): Promise<number> {
  const query = positionals.join(' ').trim();
  if (!query) throw usageError('Say what to search for', 'search');
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw usageError('--limit takes a number from 1 to 200', 'search');
  const dataDir = dataDirOf(values.data as string | undefined);
  const library = await openLibrary(dataDir);
  try {
    const saidBy = values['said-by'] as string | undefined;
    const hits = busyAsInUse(dataDir, () => searchLibrary(library, { query, limit, ...(saidBy ? { saidBy } : {}) }));
    if (values.json) {
      process.stdout.write(`${JSON.stringify(hits, null, 2)}\n`);
      return 0;
    }
    if (!hits.length) {
      process.stderr.write(`Nothing found for “${query}”${saidBy ? ` said by ${saidBy}` : ''}.\n`);
      return 0;
    }
    for (const h of hits) process.stdout.write(`${h.cite}\t${h.recordingId}\t${h.speaker ? `${h.speaker}: ` : ''}${h.sentence.replace(/\s+/g, ' ')}\n`);
    return 0;
  } finally {
    library.close();
  }
}
