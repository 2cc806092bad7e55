import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerModelHandlers } from '../../../../src/main/ipc/models';
import { Router } from '../../../../src/main/ipc/router';
import { JsonSettingsBackend } from '../../../../src/main/platform/host';
import { ModelManager } from '../../../../src/main/services/models/manager';
import { findClip, wavSeconds } from '../../../../src/main/services/models/model-test';
import { SettingsService } from '../../../../src/main/services/settings';
import { CATALOG } from '../../../../src/shared/models';

let dir: string;
let router: Router;
let settings: SettingsService;
let manager: ModelManager;
const ctx = { sender: { kind: 'host' as const, tokenValid: true } };

/** What the handlers answered, or a failed test saying what went wrong. */
async function call(channel: Parameters<Router['dispatch']>[0], input?: unknown): Promise<unknown> {
  const r = await router.dispatch(channel, input, ctx);
  if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`);
  return r.output;
}

/** A folder holding the model's files under the catalog's names, as a user picks for "Install from a file". */
function modelFolder(id: string): string {
  const entry = CATALOG.find((e) => e.id === id)!;
  const folder = join(dir, 'picked', id);
  for (const f of Object.values(entry.files)) {
    mkdirSync(join(folder, f, '..'), { recursive: true });
    writeFileSync(join(folder, f), 'weights');
  }
  return folder;
}

function start(): void {
  router = new Router(() => true, { error: () => undefined });
  settings = new SettingsService(new JsonSettingsBackend(join(dir, 'settings.json')));
  manager = new ModelManager(join(dir, 'models'), { catalog: CATALOG, freeSpace: () => Promise.resolve(null) });
  registerModelHandlers(router, manager, settings);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-first-run-'));
  start();
});
afterEach(async () => {
  await manager.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('the first-run offer over IPC', () => {
  it('offers a model for this computer with its profile, until a speech model is installed', async () => {
    const offer = (await call('models.offer', { locale: 'en-US' })) as { id: string | null; hasSpeechModel: boolean; profile: { cores: number } };
    expect(offer.id).toMatch(/^(parakeet-tdt-0\.6b-v2|moonshine-base-en|moonshine-tiny-en)$/);
    expect(offer.profile.cores).toBeGreaterThan(0);
    expect(offer.hasSpeechModel).toBe(false);
    await call('models.installFile', { file: { kind: 'path', path: modelFolder('zipformer-small-en') } });
    expect(await call('models.offer', {})).toMatchObject({ hasSpeechModel: true });
  });

  it('remembers "Not now" across a restart', async () => {
    expect(await call('models.offer', {})).toMatchObject({ dismissed: false, accepted: null });
    expect(await call('models.dismissOffer')).toEqual({ dismissed: true });
    await manager.dispose();
    start();
    expect(await call('models.offer', {})).toMatchObject({ dismissed: true });
  });

  it('a taken offer starts the download, and the model becomes the one for files once installed (after a restart too)', async () => {
    const status = (await call('models.acceptOffer', { id: 'zipformer-small-en' })) as { id: string; state: string };
    expect(status.id).toBe('zipformer-small-en');
    await call('models.cancel', { id: 'zipformer-small-en' });
    expect(await call('models.offer', {})).toMatchObject({ accepted: 'zipformer-small-en' });
    await manager.dispose();
    start();
    await call('models.installFile', { file: { kind: 'path', path: modelFolder('zipformer-small-en') } });
    await expect.poll(() => settings.get().models.files).toBe('zipformer-small-en');
  });
});

describe('the default model, deleted and installed again', () => {
  it('comes back as the default after it is installed again', async () => {
    await call('models.installFile', { file: { kind: 'path', path: modelFolder('zipformer-small-en') } });
    await call('models.setDefault', { task: 'files', id: 'zipformer-small-en' });
    await call('models.delete', { id: 'zipformer-small-en' });
    expect(settings.get().models.files).toBe('');
    await call('models.installFile', { file: { kind: 'path', path: modelFolder('zipformer-small-en') } });
    await expect.poll(() => settings.get().models.files).toBe('zipformer-small-en');
  });

  it('does not take the place of a default chosen meanwhile', async () => {
    await call('models.installFile', { file: { kind: 'path', path: modelFolder('zipformer-small-en') } });
    await call('models.setDefault', { task: 'files', id: 'zipformer-small-en' });
    await call('models.delete', { id: 'zipformer-small-en' });
    await call('models.installFile', { file: { kind: 'path', path: modelFolder('moonshine-tiny-en') } });
    await call('models.setDefault', { task: 'files', id: 'moonshine-tiny-en' });
    await call('models.installFile', { file: { kind: 'path', path: modelFolder('zipformer-small-en') } });
    // The restore runs behind the answer: wait for the file it rewrites, then read the setting.
    await expect.poll(() => JSON.parse(readFileSync(join(dir, 'models', '.verbatim-defaults.json'), 'utf8'))).toEqual({});
    expect(settings.get().models.files).toBe('moonshine-tiny-en');
  });
});

describe('the clip the speed test transcribes', () => {
  it('ships with the app: a few seconds of 16 kHz mono speech, small', () => {
    const clip = findClip(import.meta.dirname);
    expect(clip).not.toBeNull();
    const bytes = readFileSync(clip!);
    expect(bytes.readUInt16LE(22)).toBe(1); // mono
    expect(bytes.readUInt32LE(24)).toBe(16000);
    expect(wavSeconds(bytes)).toBeGreaterThan(2);
    expect(wavSeconds(bytes)).toBeLessThan(8);
    expect(bytes.length).toBeLessThan(256 * 1024);
  });

  it('refuses to test a model that is not installed, naming it', async () => {
    expect(await router.dispatch('models.test', { id: 'zipformer-small-en' }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: expect.stringMatching(/zipformer-small-en is not installed/) },
    });
    expect(existsSync(join(dir, 'models', '.verbatim-speed.json'))).toBe(false);
  });
});
