/** Reaching the service a library item was made on (its own region and address): remote delete, re-reads. */
import type { ServiceRegion } from '../../../shared/jobs';
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

  /** A client for the service a transcript was made on (the local engine is started if needed). */
  async clientFor(ref: { region: ServiceRegion; baseUrl: string | null }): Promise<RestClient> {
    if (ref.region === 'local') {
      const h = await this.engine.ensure();
      return new RestClient(h.url, h.key);
    }
    const base = ref.baseUrl ?? this.settings.get().customRestUrl;
    return new RestClient(base, this.keys.keyFor(base) ?? '');
  }

  async deleteRemote(recordingIds: string[]): Promise<{ id: string; message: string }[]> {
    const errors: { id: string; message: string }[] = [];
    for (const ref of this.library.transcripts.remoteRefs(recordingIds)) {
      try {
        const client = await this.clientFor(ref);
        await client.delete(ref.remoteId);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        if (!message.includes('(404)')) errors.push({ id: ref.recordingId, message });
      }
    }
    return errors;
  }
}
