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
  const where =
    settings.region === 'custom' ? `your service at ${settings.customRestUrl || '(no address set)'}` : `AssemblyAI ${settings.region.toUpperCase()}`;
  if (!key?.present && settings.region !== 'custom')
    return {
      text: `No API key for ${settings.region.toUpperCase()} yet, so files are transcribed by the local engine on this computer. Add a key in Settings to use the cloud.`,
      problem: 'no_key',
    };
  return { text: `Files are transcribed by ${where}${key?.present ? ` with your key ${key.masked ?? ''}` : ''}.`, problem: null };
}
