// Which library the command line opens: --data, else VERBATIM_DATA, else host mode's folder, unless only the desktop app's holds a library.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataDirOf } from '../../../../src/main/cli/session';

let dir: string;
const saved = { ...process.env };
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-datadir-'));
  process.env.XDG_DATA_HOME = join(dir, 'share');
  process.env.XDG_CONFIG_HOME = join(dir, 'config');
  delete process.env.VERBATIM_DATA;
});
afterEach(() => {
  process.env = { ...saved };
  rmSync(dir, { recursive: true, force: true });
});

const library = (folder: string) => {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'library.sqlite'), '');
};

describe.runIf(process.platform === 'linux')('the command line’s data folder', () => {
  it('takes --data, then VERBATIM_DATA, then host mode’s folder, and the desktop app’s only when it alone has a library', () => {
    expect(dataDirOf('rel/lib')).toBe(resolve('rel/lib'));
    process.env.VERBATIM_DATA = join(dir, 'env');
    expect(dataDirOf(undefined)).toBe(join(dir, 'env'));
    delete process.env.VERBATIM_DATA;
    expect(dataDirOf(undefined)).toBe(join(dir, 'share', 'verbatim'));
    library(join(dir, 'config', 'Verbatim'));
    expect(dataDirOf(undefined)).toBe(join(dir, 'config', 'Verbatim'));
    library(join(dir, 'share', 'verbatim'));
    expect(dataDirOf(undefined)).toBe(join(dir, 'share', 'verbatim'));
  });
});
