// The models folder's one reader (src/engine/models/folder.ts): hostile entries in <data>/models (a FIFO or a link
// to /dev/zero as a manifest, an oversized or malformed one, a folder whose name is no model id) mark that model
// broken, naming it, without hanging or eating memory, and the good model beside them keeps working.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelFileError, ModelsFolder } from '../../../../src/engine/models/folder';
import { MANIFEST_CAP } from '../../../../src/engine/models/folder';

const root = mkdtempSync(join(tmpdir(), 'verbatim-models-folder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function manifest(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: `Model ${id}`,
    task: 'chat',
    family: 'gguf',
    languages: ['en'],
    files: { model: 'model.gguf' },
    wordTimings: 'none',
    sha256: null,
    bytes: 10,
    installedAt: '2026-11-27T00:00:00.000Z',
    ...extra,
  };
}

/** A models folder with one good model and the hostile entries named. */
function folderWith(name: string, hostile: Record<string, (dir: string) => void>): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'good-model'), { recursive: true });
  writeFileSync(join(dir, 'good-model', 'verbatim-model.json'), JSON.stringify(manifest('good-model')));
  writeFileSync(join(dir, 'good-model', 'model.gguf'), 'GGUF and more');
  for (const [id, make] of Object.entries(hostile)) {
    mkdirSync(join(dir, id), { recursive: true });
    make(join(dir, id, 'verbatim-model.json'));
  }
  return dir;
}

const fifo = (path: string): void => void execFileSync('mkfifo', [path]);

describe('the models folder reader', () => {
  it('marks a FIFO manifest broken, naming the model, without waiting for a writer', async () => {
    const models = new ModelsFolder(folderWith('fifo', { 'fifo-model': fifo }));
    const { models: ok, broken } = await models.scan();
    expect(ok.map((m) => m.id)).toEqual(['good-model']);
    expect(broken.map((b) => [b.id, b.error.message])).toEqual([
      ['fifo-model', expect.stringMatching(/^The model fifo-model cannot be used: its verbatim-model.json is a FIFO/)],
    ]);
    await expect(models.find('fifo-model', 'chat')).rejects.toThrow(ModelFileError);
    expect((await models.find('good-model', 'chat'))?.manifest.name).toBe('Model good-model');
  });

  it('refuses a manifest linked to /dev/zero without reading it', async () => {
    const models = new ModelsFolder(folderWith('zero', { 'zero-model': (p) => symlinkSync('/dev/zero', p) }));
    await expect(models.find('zero-model', 'chat')).rejects.toThrow(/The model zero-model cannot be used: its verbatim-model.json is a link/);
    expect((await models.list('chat')).map((m) => m.id)).toEqual(['good-model']);
  });

  it('refuses an oversized manifest and one that is not JSON or not a manifest, each naming its model', async () => {
    const models = new ModelsFolder(
      folderWith('bad', {
        'huge-model': (p) => writeFileSync(p, `{"id":"huge-model","pad":"${'x'.repeat(MANIFEST_CAP)}"}`),
        'text-model': (p) => writeFileSync(p, 'not json at all'),
        'shape-model': (p) => writeFileSync(p, JSON.stringify({ id: 'shape-model', files: 'nope' })),
        'other-model': (p) => writeFileSync(p, JSON.stringify(manifest('good-model'))),
      }),
    );
    const { models: ok, broken } = await models.scan();
    expect(ok.map((m) => m.id)).toEqual(['good-model']);
    const why = Object.fromEntries(broken.map((b) => [b.id, b.error.message]));
    expect(why['huge-model']).toMatch(/huge-model.*larger than/);
    expect(why['text-model']).toMatch(/text-model.*is not JSON/);
    expect(why['shape-model']).toMatch(/shape-model.*is not a model manifest/);
    expect(why['other-model']).toMatch(/other-model.*names another model/);
  });

  it('passes over folders whose name is no model id, and answers null when asked for one', async () => {
    const dir = folderWith('ids', {});
    mkdirSync(join(dir, 'Not A Model'));
    writeFileSync(join(dir, 'Not A Model', 'verbatim-model.json'), JSON.stringify(manifest('Not A Model')));
    const models = new ModelsFolder(dir);
    expect((await models.scan()).models.map((m) => m.id)).toEqual(['good-model']);
    expect((await models.scan()).broken).toEqual([]);
    expect(await models.find('Not A Model', 'chat')).toBeNull();
    expect(await models.find('../ids/good-model', 'chat')).toBeNull();
  });

  it('gives a model file only when it is a regular file inside the folder', async () => {
    const dir = folderWith('files', {});
    const models = new ModelsFolder(dir);
    const good = (await models.find('good-model', 'chat'))!;
    expect(await models.file(good, 'model')).toBe(join(dir, 'good-model', 'model.gguf'));
    rmSync(join(dir, 'good-model', 'model.gguf'));
    fifo(join(dir, 'good-model', 'model.gguf'));
    await expect(models.file(good, 'model')).rejects.toThrow(/good-model.*model file model.gguf is a FIFO/);
    rmSync(join(dir, 'good-model', 'model.gguf'));
    symlinkSync('/dev/zero', join(dir, 'good-model', 'model.gguf'));
    await expect(models.file(good, 'model')).rejects.toThrow(/good-model.*links outside the model's folder/);
    await expect(models.file({ ...good, manifest: { ...good.manifest, files: { model: '../x/model.gguf' } } }, 'model')).rejects.toThrow(
      /leaves the model's folder/,
    );
  });

  it('sees a model replaced or deleted while it runs', async () => {
    const dir = folderWith('swap', {});
    const models = new ModelsFolder(dir);
    expect((await models.find('good-model', 'chat'))?.manifest.name).toBe('Model good-model');
    writeFileSync(join(dir, 'good-model', 'verbatim-model.json'), JSON.stringify(manifest('good-model', { name: 'Renamed model' })));
    expect((await models.find('good-model', 'chat'))?.manifest.name).toBe('Renamed model');
    expect(await models.find('good-model', 'files')).toBeNull();
    rmSync(join(dir, 'good-model'), { recursive: true });
    expect(await models.find('good-model', 'chat')).toBeNull();
  });
});
