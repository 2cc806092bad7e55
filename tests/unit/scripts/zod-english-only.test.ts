/**
 * Host mode's bundles leave out zod's messages in other languages (scripts/build-host.mjs: half of bundled zod,
 * loaded and run by every start of host mode, the engine and the library worker: issue 52, cold start). What is
 * left must still be the zod main uses: English messages, the same answers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { zodEnglishOnly } from '../../../scripts/build-host.mjs';

const ROOT = resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'verbatim-zod-en-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ENTRY = `
import { z } from 'zod';
const schema = z.object({ name: z.string().min(2), size: z.number().int() });
const bad = schema.safeParse({ name: 'a', size: 1.5 });
export const locales = Object.keys(z.locales);
export const messages = bad.success ? [] : bad.error.issues.map((i) => i.message);
export const good = schema.parse({ name: 'ab', size: 2 });
`;

async function bundle(plugins: Plugin[]): Promise<{ file: string; text: string }> {
  const r = await build({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    plugins,
    logLevel: 'silent',
  });
  const text = r.outputFiles[0]!.text;
  const file = join(dir, `bundle-${plugins.length}.mjs`);
  writeFileSync(file, text);
  return { file, text };
}

describe('zodEnglishOnly (host bundles)', () => {
  it('bundles English alone, and zod answers as it does with every language bundled', async () => {
    const all = await bundle([]);
    const en = await bundle([zodEnglishOnly]);
    // The plugin takes effect: without it every language is in the bundle.
    expect(all.text).toContain('zod/v4/locales/fr.js');
    expect(en.text).not.toContain('zod/v4/locales/fr.js');
    expect(en.text.length).toBeLessThan(all.text.length * 0.7);
    const a = (await import(pathToFileURL(all.file).href)) as { locales: string[]; messages: string[]; good: unknown };
    const b = (await import(pathToFileURL(en.file).href)) as { locales: string[]; messages: string[]; good: unknown };
    expect(a.locales.length).toBeGreaterThan(20);
    expect(b.locales).toEqual(['en']);
    expect(b.messages).toEqual(a.messages);
    expect(b.messages).toEqual(['Too small: expected string to have >=2 characters', 'Invalid input: expected int, received number']);
    expect(b.good).toEqual({ name: 'ab', size: 2 });
  });
});
