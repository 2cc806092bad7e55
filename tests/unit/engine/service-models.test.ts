import { describe, expect, it } from 'vitest';
import {
  CLOUD_DEFAULT_SPEECH_MODELS,
  STREAMING_DEFAULT_MODEL,
  offeredServiceModels,
  resolveServiceModel,
  serviceModelNames,
} from '../../../src/shared/api/service-models';

describe('service model list', () => {
  it('routes aliases and retired ids to the model that runs, and knows no other id', () => {
    expect(resolveServiceModel('streaming', 'u3-pro')?.id).toBe('u3-rt-pro');
    expect(resolveServiceModel('streaming', 'u3-rt-pro-beta-1')?.id).toBe('u3-rt-pro');
    expect(resolveServiceModel('prerecorded', 'nano')?.id).toBe('universal-2');
    expect(resolveServiceModel('prerecorded', 'universal')?.id).toBe('universal-2');
    expect(resolveServiceModel('prerecorded', 'assemblyai-stt-3-7')?.status).toBe('ga');
    expect(resolveServiceModel('prerecorded', 'whisper-rt')).toBeNull();
    expect(resolveServiceModel('streaming', 'no-such-model')).toBeNull();
  });

  it('names defaults that are in the list and offered', () => {
    for (const id of CLOUD_DEFAULT_SPEECH_MODELS) expect(offeredServiceModels('prerecorded').map((m) => m.id)).toContain(id);
    expect(offeredServiceModels('streaming').map((m) => m.id)).toContain(STREAMING_DEFAULT_MODEL);
    expect(offeredServiceModels('prerecorded').some((m) => m.status === 'retired')).toBe(false);
  });

  it('lists every streaming id the pinned SDK names', () => {
    const sdk = [
      'universal-streaming-english',
      'universal-streaming-multilingual',
      'u3-rt-pro',
      'u3-rt-pro-beta-1',
      'whisper-rt',
      'universal-3-5-pro',
      'universal-3-6',
      'universal-3-6-pro',
      'u3-pro',
    ];
    expect(new Set(serviceModelNames('streaming'))).toEqual(new Set(sdk));
  });
});
