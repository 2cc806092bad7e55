// The models store: when the first-run model offer shows (a model named, nothing installed, neither dismissed nor taken, files transcribed on this computer), and a speed test's failure going with the copy it ran on.
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { connectModels, modelsState, offerShown, useModels, type ModelsState } from '../../../../src/renderer/src/stores/models';
import { AppError } from '../../../../src/shared/errors';
import type { ModelOffer } from '../../../../src/shared/models/offer';
import { FakeApi } from '../support/fake-api';

const offer: ModelOffer = {
  id: 'parakeet-tdt-0.6b-v2',
  reason: 'Parakeet TDT 0.6B v2 (int8): the most accurate English model.',
  profile: { memoryBytes: 16 * 1024 ** 3, cores: 8, freeDiskBytes: 100e9, language: 'en' },
  hasSpeechModel: false,
  dismissed: false,
  accepted: null,
};

describe('the first-run offer', () => {
  it('shows on the local engine, and on a cloud region with no key', () => {
    expect(offerShown(offer, 'local', false)).toBe(true);
    expect(offerShown(offer, 'local', true)).toBe(true);
    expect(offerShown(offer, 'us', false)).toBe(true);
    expect(offerShown(offer, 'eu', false)).toBe(true);
  });

  it('does not show with a cloud key, on a custom service, or before main answers', () => {
    expect(offerShown(offer, 'us', true)).toBe(false);
    expect(offerShown(offer, 'custom', false)).toBe(false);
    expect(offerShown(null, 'local', false)).toBe(false);
  });

  it('does not show once a speech model is installed, once dismissed or taken, or when no model fits', () => {
    expect(offerShown({ ...offer, hasSpeechModel: true }, 'local', false)).toBe(false);
    expect(offerShown({ ...offer, dismissed: true }, 'local', false)).toBe(false);
    expect(offerShown({ ...offer, accepted: offer.id }, 'local', false)).toBe(false);
    expect(offerShown({ ...offer, id: null }, 'local', false)).toBe(false);
  });
});

describe('a speed test’s failure', () => {
  const failed = 'The model could not transcribe the test recording: no speech found';
  const list = { models: [], others: [], dir: '/models', freeBytes: null };
  const api = () =>
    new FakeApi()
      .handle('models.test', () => {
        throw new AppError('unsupported_media', failed);
      })
      .handle('models.delete', () => ({ freedBytes: 1_000_000 }))
      .handle('models.list', () => list)
      .handle('models.speeds', () => ({}));

  it('goes with the copy it ran on when the model is deleted', async () => {
    const store = createStore<ModelsState>()(modelsState(api()));
    await store.getState().test('zipformer-small-en');
    expect(store.getState().tests['zipformer-small-en']).toEqual({ state: 'failed', message: failed });
    await store.getState().remove('zipformer-small-en', 'Zipformer small (English)');
    expect(store.getState().tests['zipformer-small-en']).toBeUndefined();
  });

  it('is not shown beside a copy downloaded afresh', () => {
    const fake = api();
    useModels.setState({ tests: { 'zipformer-small-en': { state: 'failed', message: failed } } });
    const off = connectModels(fake);
    fake.emit('models.progress', { id: 'zipformer-small-en', state: 'installed', bytes: 10, total: 10, speed: 0, etaSeconds: null, error: null });
    off();
    expect(useModels.getState().tests['zipformer-small-en']).toBeUndefined();
  });
});
