/** Deleting library items on the service too, each with the region it was made in. */
import type { SettingsService } from '../settings';
import { RestClient } from '../client/rest';
import type { EngineManager } from '../local-engine';
import type { KeyVault } from '../keys';
import type { Library } from './library';

export class LibraryRemote {
  constructor(
    private readonly library: Library,
    private readonly keys: KeyVault,
    private readonly engine: EngineManager,
    private readonly settings: SettingsService,
  ) {}

  async deleteRemote(recordingIds: string[]): Promise<{ id: string; message: string }[]> {
    const errors: { id: string; message: string }[] = [];
    for (const ref of this.library.remoteRefs(recordingIds)) {
      try {
        let client: RestClient;
        if (ref.region === 'local') {
          const h = await this.engine.ensure();
          client = new RestClient(h.url, h.key);
        } else {
          client = new RestClient(ref.baseUrl ?? this.settings.get().customRestUrl, this.keys.get() ?? '');
        }
        await client.delete(ref.remoteId);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        if (!message.includes('(404)')) errors.push({ id: ref.recordingId, message });
      }
    }
    return errors;
  }
}
