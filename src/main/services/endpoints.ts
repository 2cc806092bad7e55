/** Base addresses per region (DESIGN.md §4, API.md §1). */
import type { ServiceRegion } from '../../shared/jobs';
import type { Settings } from '../../shared/settings';

export interface Endpoints {
  rest: string;
  streaming: string;
  gateway: string;
}

export const cloud: Record<'us' | 'eu', Endpoints> = {
  us: { rest: 'https://api.assemblyai.com', streaming: 'wss://streaming.assemblyai.com', gateway: 'https://llm-gateway.assemblyai.com' },
  eu: { rest: 'https://api.eu.assemblyai.com', streaming: 'wss://streaming.eu.assemblyai.com', gateway: 'https://llm-gateway.eu.assemblyai.com' },
};

export function localEndpoints(engineUrl: string): Endpoints {
  return { rest: engineUrl, streaming: engineUrl.replace(/^http/, 'ws'), gateway: engineUrl };
}

/** Endpoints of a non-local region; null when `custom` has no REST address yet. */
export function remoteEndpoints(region: Exclude<ServiceRegion, 'local'>, s: Settings): Endpoints | null {
  if (region !== 'custom') return cloud[region];
  if (!s.customRestUrl) return null;
  const rest = s.customRestUrl.replace(/\/+$/, '');
  return {
    rest,
    streaming: (s.customStreamingUrl || rest.replace(/^http/, 'ws')).replace(/\/+$/, ''),
    gateway: (s.customGatewayUrl || rest).replace(/\/+$/, ''),
  };
}
