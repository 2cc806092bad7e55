/** Which engine new jobs will use, in words, from the settings and key status. */
import type { KeyStatus } from '../../../../shared/ipc';
import type { Settings } from '../../../../shared/settings';

export interface EngineNote {
  text: string;
  /** The user must act before cloud jobs can work. */
  problem: 'no_key' | null;
}

export function engineNote(settings: Settings, key: KeyStatus | null): EngineNote {
  if (settings.region === 'local') return { text: 'Files are transcribed by the local engine on this computer: no key, no network, English.', problem: null };
  const where = settings.region === 'custom' ? `your service at ${settings.customRestUrl || '(no address set)'}` : `AssemblyAI ${settings.region.toUpperCase()}`;
  if (!key?.present) return { text: `Region ${settings.region.toUpperCase()} needs an API key, and none is set. Add one in Settings, or switch to the local engine.`, problem: 'no_key' };
  return { text: `Files are transcribed by ${where} with your key ${key.masked ?? ''}.`, problem: null };
}
