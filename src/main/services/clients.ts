/**
 * Clients for whatever region the app is set to: the local engine (started on
 * demand) with its per-launch key, or a cloud/custom service with the vault's
 * key. Live captions and chat get their clients here.
 */
import { STREAMING_DEFAULT_MODEL } from '../../shared/api/service-models';
import { AppError } from '../../shared/errors';
import type { RateLimit } from '../../shared/jobs';
import { GatewayClient } from './client/gateway';
import { RestClient } from './client/rest';
import { StreamingClient, type StreamingHandlers, type StreamingOptions } from './client/streaming';
import { localEndpoints, remoteEndpoints, type Endpoints } from './endpoints';
import type { KeyVault } from './keys';
import type { EngineManager } from './local-engine';
import type { SettingsService } from './settings';

export class ServiceClients {
  constructor(
    private readonly settings: SettingsService,
    private readonly keys: KeyVault,
    private readonly engine: EngineManager,
    private readonly onRateLimit: (r: RateLimit) => void,
  ) {}

  /** Endpoints and key of the current region (no key for the cloud = the local engine). */
  async target(): Promise<{ endpoints: Endpoints; key: string; region: string }> {
    const s = this.settings.get();
    const key = this.keys.get();
    if (s.region === 'local' || (s.region !== 'custom' && !key)) {
      const h = await this.engine.ensure();
      return { endpoints: localEndpoints(h.url), key: h.key, region: 'local' };
    }
    const endpoints = remoteEndpoints(s.region, s);
    if (!endpoints) throw new AppError('bad_request', 'Region “custom” needs a REST address (Settings → Transcription service).');
    // A stored key goes only to the origin it was entered for.
    return { endpoints, key: this.keys.keyFor(endpoints.rest) ?? '', region: s.region };
  }

  async rest(): Promise<RestClient> {
    const t = await this.target();
    return new RestClient(t.endpoints.rest, t.key);
  }

  async gateway(): Promise<GatewayClient> {
    const t = await this.target();
    return new GatewayClient(t.endpoints.gateway, t.key, this.onRateLimit);
  }

  async streaming(opts: Omit<StreamingOptions, 'baseUrl' | 'key'>, handlers: StreamingHandlers): Promise<StreamingClient> {
    const t = await this.target();
    // On the local engine, live captions run on the default live model when one is set (Settings → Models);
    // elsewhere on the model the user chose, else the service's default, named so the session says which ran.
    const live = t.region === 'local' ? this.settings.get().models.live : (opts.speechModel ?? STREAMING_DEFAULT_MODEL);
    const { speechModel: _chosen, ...rest } = opts;
    return new StreamingClient({ ...rest, ...(live ? { speechModel: live } : {}), baseUrl: t.endpoints.streaming, key: t.key }, handlers);
  }
}
