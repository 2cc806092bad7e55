/**
 * Installing a model from a file goes through the owner of the user's files (services/files): in host
 * mode an archive reached through a link inside --folder that leads outside is refused with words that say
 * so, an archive swapped for such a link after the check is not read from outside (it is hashed and
 * unpacked from the descriptor the check opened), and a model folder is read only through the same check
 * for each of its files. The real manager, real archives (bzip2), real links.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerModelHandlers } from '../../src/main/ipc/models';
import { Router } from '../../src/main/ipc/router';
import { JsonSettingsBackend } from '../../src/main/platform/host';
import { PickedFiles } from '../../src/main/services/files/picked';
import { UserFiles } from '../../src/main/services/files/refs';
import { StagedUploads } from '../../src/main/services/files/staged';
import { readManifest } from '../../src/main/services/models/install';
import { ModelManager } from '../../src/main/services/models/manager';
import { SettingsService } from '../../src/main/services/settings';
import type { CatalogEntry } from '../../src/shared/models/catalog';
import { modelMembers, tarBz2, type ArchiveMember } from './support/model-server';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
let root: string;
let inside: string;
let outside: string;
let models: string;
let ownMembers: ArchiveMember[];
let own: Buffer;
let secret: Buffer;
const managers: ModelManager[] = [];

const entry = (): CatalogEntry => ({
  id: 'model-a',
  name: 'Test model-a',
  task: 'files',
  family: 'zipformer-transducer',
  languages: ['en'],
  url: 'https://models.invalid/model-a.tar.bz2',
  format: 'tar.bz2',
  sizeBytes: own.length,
  sha256: null,
  files: { encoder: 'encoder.onnx', decoder: 'decoder.onnx', joiner: 'joiner.onnx', tokens: 'tokens.txt' },
  licence: 'Apache-2.0',
  speedClass: 'fast',
  wer: [],
  rtf: null,
  wordTimings: 'words',
  contextLength: null,
  ramBytes: null,
  note: '',
  checksums: null,
  unpackedBytes: 5 * 1024 * 1024,
});

/** Host mode's manager and channel: only what lies under --folder (`inside`) may be read. `beforeRead` runs after the check, before the install reads on. */
function hostModels(beforeRead?: () => void) {
  const picked = new PickedFiles(true);
  picked.addFolder(inside);
  const files = new UserFiles(picked, new StagedUploads(join(root, 'uploads'), () => new Set()));
  const m = new ModelManager(models, {
    catalog: [entry()],
    files,
    freeSpace: () => {
      beforeRead?.();
      return Promise.resolve(null);
    },
  });
  managers.push(m);
  const router = new Router(() => true, { error: () => undefined });
  registerModelHandlers(router, m, new SettingsService(new JsonSettingsBackend(join(root, 'settings.json'))));
  const install = (path: string) =>
    router.dispatch('models.installFile', { file: { kind: 'path', path } }, { sender: { kind: 'host' as const, tokenValid: true } });
  return { m, files, router, install };
}

beforeAll(async () => {
  ownMembers = modelMembers('model-a', 64 * 1024);
  own = await tarBz2(ownMembers);
  secret = await tarBz2(modelMembers('model-a', 48 * 1024));
});
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'verbatim-models-confined-'));
  inside = join(root, 'folder');
  outside = join(root, 'private');
  models = join(root, 'models');
  mkdirSync(inside);
  mkdirSync(outside);
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
  rmSync(root, { recursive: true, force: true });
});

describe('host mode: models.installFile through the owner of the user’s files', () => {
  it('refuses a link inside --folder to an archive outside, saying it leads outside, and installs nothing', async () => {
    writeFileSync(join(outside, 'model-a.tar.bz2'), secret);
    symlinkSync(join(outside, 'model-a.tar.bz2'), join(inside, 'model-a.tar.bz2'));
    const { install } = hostModels();
    expect(await install(join(inside, 'model-a.tar.bz2'))).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: expect.stringMatching(/link to a file outside the folders .*--folder.*Nothing was installed/) },
    });
    expect(existsSync(join(models, 'model-a'))).toBe(false);
  });

  it('an archive swapped for a link out after the check is read from the file the check opened, not from outside', async () => {
    const file = join(inside, 'model-a.tar.bz2');
    writeFileSync(file, own);
    writeFileSync(join(outside, 'secret.tar.bz2'), secret);
    let swapped = false;
    const { install } = hostModels(() => {
      // After the check, before the archive is hashed and unpacked: the path now leads outside.
      rmSync(file);
      symlinkSync(join(outside, 'secret.tar.bz2'), file);
      swapped = true;
    });
    expect(await install(file)).toMatchObject({ ok: true, output: { id: 'model-a' } });
    expect(swapped).toBe(true);
    expect((await readManifest(models, 'model-a'))?.sha256).toBe(sha(own));
    const encoder = ownMembers.find((x) => x.name === 'model-a/encoder.onnx')!.body!;
    expect(readFileSync(join(models, 'model-a', 'encoder.onnx')).equals(encoder)).toBe(true);
  });

  it('a model folder inside --folder whose file is a link outside is refused; the folder itself copied inside installs', async () => {
    const folder = join(inside, 'model-a');
    mkdirSync(folder);
    for (const f of ['decoder.onnx', 'joiner.onnx', 'tokens.txt']) writeFileSync(join(folder, f), `own ${f}`);
    writeFileSync(join(outside, 'secret.onnx'), 'secret weights');
    symlinkSync(join(outside, 'secret.onnx'), join(folder, 'encoder.onnx'));
    const { install } = hostModels();
    expect(await install(folder)).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/link to a file outside/) } });
    expect(existsSync(join(models, 'model-a'))).toBe(false);
    // A folder that is itself a link out is refused by its real path.
    const out = join(outside, 'model-a');
    mkdirSync(out);
    for (const f of ['encoder.onnx', 'decoder.onnx', 'joiner.onnx', 'tokens.txt']) writeFileSync(join(out, f), `secret ${f}`);
    rmSync(folder, { recursive: true });
    symlinkSync(out, folder);
    expect(await install(folder)).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/outside/) } });
    expect(existsSync(join(models, 'model-a'))).toBe(false);
    rmSync(folder);
    mkdirSync(folder);
    for (const f of ['encoder.onnx', 'decoder.onnx', 'joiner.onnx', 'tokens.txt']) writeFileSync(join(folder, f), `own ${f}`);
    expect(await install(folder)).toMatchObject({ ok: true, output: { id: 'model-a' } });
    expect(readFileSync(join(models, 'model-a', 'encoder.onnx'), 'utf8')).toBe('own encoder.onnx');
  });

  it('an upload installs from its staged copy, which is then gone', async () => {
    const { files, router } = hostModels();
    const { id, path } = files.staged.create();
    writeFileSync(path, own);
    const ctx = { sender: { kind: 'host' as const, tokenValid: true } };
    expect(await router.dispatch('models.installFile', { file: { kind: 'upload', uploadId: id, name: 'model-a.tar.bz2' } }, ctx)).toMatchObject({
      ok: true,
      output: { id: 'model-a' },
    });
    expect(existsSync(path)).toBe(false);
    expect((await readManifest(models, 'model-a'))?.sha256).toBe(sha(own));
  });
});
