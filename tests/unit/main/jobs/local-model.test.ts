import { describe, expect, it } from 'vitest';
import type { JobContext } from '../../../../src/main/services/jobs/context';
import { createParams } from '../../../../src/main/services/jobs/submit';
import { defaultSettings, type Settings } from '../../../../src/shared/settings';

/** The create request of a job, under these settings, on this region (no webhooks: the body only). */
async function paramsFor(region: 'local' | 'us', models: Settings['models']) {
  const settings: Settings = { ...defaultSettings, models };
  const ctx = { settings: { get: () => settings, webhookAuthHeaderValue: () => '' }, webhooks: null, library: { webhooks: { begin: () => undefined } } };
  const row = { id: 'j1', region, transcript_id: 't1', options: JSON.stringify({ speechModels: ['universal-3-pro', 'universal-2'], punctuate: true }) };
  return (await createParams(ctx as unknown as JobContext, row as never, 'http://127.0.0.1/upload/x')) as Record<string, unknown>;
}

describe('the default local model for files', () => {
  it('local jobs ask for it by its catalog name', async () => {
    expect((await paramsFor('local', { files: 'parakeet-tdt-0.6b-v2', live: '', mirror: '' })).speech_models).toEqual(['parakeet-tdt-0.6b-v2']);
  });
  it('with none set, local jobs keep the names PocketSphinx answers to', async () => {
    expect((await paramsFor('local', { files: '', live: '', mirror: '' })).speech_models).toEqual(['universal-3-pro', 'universal-2']);
  });
  it('cloud jobs never send a local name', async () => {
    expect((await paramsFor('us', { files: 'parakeet-tdt-0.6b-v2', live: '', mirror: '' })).speech_models).toEqual(['universal-3-pro', 'universal-2']);
  });
});
