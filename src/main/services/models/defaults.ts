/** The default local models (files, live captions) kept in Settings: set only to an installed model made for that task, cleared when it is deleted, and given back when it is installed again. */
import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import { readManifest } from './install';
import type { ModelManager } from './manager';
import type { SettingsService } from '../settings';
import type { SettingsView } from '../../../shared/settings';
import { readSmallJsonSync } from './regular-file';
import { SmallJsonFile } from './small-json';

export async function setDefaultModel(manager: ModelManager, settings: SettingsService, task: 'files' | 'live', id: string): Promise<SettingsView> {
  if (id) {
    const manifest = await readManifest(manager.dir, id);
    if (!manifest) throw new AppError('not_found', `${id} is not installed. Download it first, then make it the default.`);
    if (manifest.task !== task)
      throw new AppError(
        'bad_request',
        `${manifest.name} is made for ${manifest.task === 'live' ? 'live captions' : manifest.task}, not ${task === 'live' ? 'live captions' : 'files'}.`,
      );
  }
  return settings.set({ models: { ...settings.get().models, [task]: id } });
}

/** After a delete: a default that named the model falls back to the built-in; answers the tasks it was the default for. */
export function forgetDefault(settings: SettingsService, id: string): ('files' | 'live')[] {
  const m = settings.get().models;
  const tasks = (['files', 'live'] as const).filter((t) => m[t] === id);
  if (tasks.length) settings.set({ models: { ...m, files: m.files === id ? '' : m.files, live: m.live === id ? '' : m.live } });
  return tasks;
}

/**
 * Models to make a default once installed, kept in `<models>/.verbatim-defaults.json`:
 * a default that was deleted (so a re-download gives it back) and a first-run
 * offer taken (its download may finish after a restart).
 */
export class PendingDefaults {
  private pending: Record<string, 'files' | 'live'> = {};

  constructor(private readonly dir: string) {
    // None yet, or unreadable (or not a regular file): nothing pending.
    const raw = readSmallJsonSync(this.path);
    if (raw && typeof raw === 'object') for (const [id, task] of Object.entries(raw)) if (task === 'files' || task === 'live') this.pending[id] = task;
  }

  private jsonFile: SmallJsonFile | null = null;

  /** One writer for the file, so its writes land in the order they were asked for. */
  private get file(): SmallJsonFile {
    return (this.jsonFile ??= new SmallJsonFile(this.path));
  }

  private get path(): string {
    return join(this.dir, '.verbatim-defaults.json');
  }

  private save(): Promise<void> {
    return this.file.write(this.pending);
  }

  remember(id: string, task: 'files' | 'live'): Promise<void> {
    this.pending[id] = task;
    return this.save();
  }

  has(id: string): boolean {
    return id in this.pending;
  }

  /**
   * A model was installed: if it is pending and its task still runs on the
   * built-in (nobody chose another meanwhile), it becomes the default again.
   * Answers the task it became the default for, or null.
   */
  async installed(manager: ModelManager, settings: SettingsService, id: string): Promise<'files' | 'live' | null> {
    const task = this.pending[id];
    if (!task) return null;
    delete this.pending[id];
    await this.save();
    if (settings.get().models[task] !== '') return null;
    await setDefaultModel(manager, settings, task, id);
    return task;
  }
}
