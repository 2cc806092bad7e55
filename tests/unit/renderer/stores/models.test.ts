// When the first-run model offer shows: a model named, nothing installed, neither dismissed nor taken, and files transcribed on this computer.
import { describe, expect, it } from 'vitest';
import { offerShown } from '../../../../src/renderer/src/stores/models';
import type { ModelOffer } from '../../../../src/shared/models/offer';

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
