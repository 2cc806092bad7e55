import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerModelHandlers } from '../../../../src/main/ipc/models';
import { Router } from '../../../../src/main/ipc/router';
import { JsonSettingsBackend } from '../../../../src/main/platform/host';
import { ModelManager } from '../../../../src/main/services/models/manager';
import { SettingsService } from '../../../../src/main/services/settings';
import { CATALOG, MODEL_MANIFEST_FILE, type ModelManifest } from '../../../../src/shared/models';

let dir: string;
let router: Router;
let settings: SettingsService;
let manager: ModelManager;
const ctx = { sender: { kind: 'host' as const, tokenValid: true } };

/** Puts an installed model in place as the manager would (files and, last, the manifest). */
function install(id: string): void {
  const entry = CATALOG.find((e) => e.id === id)!;
  mkdirSync(join(dir, 'models', id), { recursive: true });
  for (const f of Object.values(entry.files)) writeFileSync(join(dir, 'models', id, f), 'x');
  const m: ModelManifest = { ...entry, sha256: null, bytes: 4, installedAt: new Date().toISOString() };
  writeFileSync(join(dir, 'models', id, MODEL_MANIFEST_FILE), JSON.stringify(m));
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-models-ipc-'));
  router = new Router(() => true, { error: () => undefined });
  settings = new SettingsService(new JsonSettingsBackend(join(dir, 'settings.json')));
  manager = new ModelManager(join(dir, 'models'), { catalog: CATALOG, freeSpace: () => Promise.resolve(null) });
  registerModelHandlers(router, manager, settings);
});
afterEach(async () => {
  await manager.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('models.* handlers', () => {
  it('lists the catalog with nothing installed, and the built-in stays the default', async () => {
    const r = await router.dispatch('models.list', undefined, ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const out = r.output as { models: { entry: { id: string }; installed: unknown }[] };
    expect(out.models.map((m) => m.entry.id)).toContain('parakeet-tdt-0.6b-v2');
    expect(out.models.every((m) => m.installed === null)).toBe(true);
    expect(settings.get().models).toEqual({ files: '', live: '', mirror: '' });
  });

  it('sets a default only to an installed model made for that task; deleting it falls back to the built-in', async () => {
    expect(await router.dispatch('models.setDefault', { task: 'files', id: 'zipformer-small-en' }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: expect.stringMatching(/not installed/) },
    });
    install('zipformer-small-en');
    install('streaming-zipformer-en');
    expect(await router.dispatch('models.setDefault', { task: 'files', id: 'streaming-zipformer-en' }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'bad_request', message: expect.stringMatching(/live captions, not files/) },
    });
    expect(await router.dispatch('models.setDefault', { task: 'files', id: 'zipformer-small-en' }, ctx)).toMatchObject({ ok: true });
    expect(await router.dispatch('models.setDefault', { task: 'live', id: 'streaming-zipformer-en' }, ctx)).toMatchObject({ ok: true });
    expect(settings.get().models).toMatchObject({ files: 'zipformer-small-en', live: 'streaming-zipformer-en' });
    const del = await router.dispatch('models.delete', { id: 'zipformer-small-en' }, ctx);
    expect(del).toMatchObject({ ok: true, output: { freedBytes: expect.any(Number) } });
    expect(settings.get().models).toMatchObject({ files: '', live: 'streaming-zipformer-en' });
  });

  it('refuses bad input before it reaches the manager', async () => {
    expect(await router.dispatch('models.download', { id: '../etc' }, ctx)).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await router.dispatch('models.download', { id: 'no-such-model' }, ctx)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await router.dispatch('models.installFile', {}, ctx)).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await router.dispatch('models.installFile', { file: { kind: 'upload', uploadId: '../../x', name: 'a.tar.bz2' } }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await router.dispatch('models.installFile', { file: { kind: 'path', path: join(dir, 'nothing-here.tar.bz2') } }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'file_unreadable' },
    });
  });
});
