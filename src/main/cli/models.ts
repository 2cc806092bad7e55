/** `verbatim models list|download ID|remove ID`: the local models folder the app uses too. */
import { CliError, type Values, usageError } from './errors';
import { Progress } from './progress';
import { dataDirOf, openCore } from './session';

function size(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.max(1, Math.round(bytes / 1e6))} MB`;
}

export async function modelsCommand(values: Values, positionals: string[]): Promise<number> {
  const [action, id, ...extra] = positionals;
  if (!action || !['list', 'download', 'remove'].includes(action)) throw usageError('Say list, download ID or remove ID', 'models');
  if (action === 'list' ? id !== undefined : id === undefined || extra.length)
    throw usageError(action === 'list' ? 'models list takes no more arguments' : `Name one model: verbatim models ${action} ID`, 'models');
  const session = await openCore(dataDirOf(values.data as string | undefined), () => undefined);
  const { core } = session;
  try {
    const list = await core.models.list();
    if (action === 'list') {
      process.stdout.write(`pocketsphinx\tfiles\tbuilt in\tPocketSphinx (built in, English)\n`);
      for (const m of list.models) {
        const state = m.installed ? 'installed' : m.download ? `${m.download.state}` : `available, ${size(m.entry.sizeBytes)}`;
        process.stdout.write(`${m.entry.id}\t${m.entry.task}\t${state}\t${m.entry.name}\n`);
      }
      for (const o of list.others) process.stdout.write(`${o.id}\t${o.task}\tinstalled (not in the catalog)\t${o.name}\n`);
      return 0;
    }
    const known = list.models.find((m) => m.entry.id === id) ?? list.others.find((o) => o.id === id);
    if (!known) throw new CliError(`There is no model called “${id}”. See: verbatim models list`);
    if (action === 'remove') {
      const installed = 'entry' in known ? known.installed !== null : true;
      if (!installed) throw new CliError(`The model ${id} is not installed: nothing to remove.`);
      const freed = await core.models.delete(id!);
      process.stderr.write(`Removed ${id} (${size(freed)} freed).\n`);
      return 0;
    }
    if (!('entry' in known)) throw new CliError(`${id} was installed by hand and has nowhere to download from.`);
    if (known.installed) {
      process.stderr.write(`${id} is already installed.\n`);
      return 0;
    }
    const progress = new Progress();
    progress.add(id!, id!);
    const off = core.models.onProgress((s) => {
      if (s.id !== id) return;
      progress.bytes(id!, s.bytes, s.total);
      progress.set(id!, s.state === 'installed' ? 'done' : s.state === 'failed' ? 'failed' : 'downloading', s.error ? `: ${s.error.message}` : '');
    });
    await core.models.download(id!);
    const end = await core.models.settled(id!);
    off();
    progress.end();
    if (end?.state !== 'installed')
      throw new CliError(`The download of ${id} did not finish${end?.error ? `: ${end.error.message}` : ''}. Run the same command again to resume it.`);
    return 0;
  } finally {
    await session.close();
  }
}
