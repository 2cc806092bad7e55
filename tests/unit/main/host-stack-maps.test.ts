/**
 * Host mode runs without --enable-source-maps (it parsed every loaded file's map at load: cold start) and
 * maps a trace's frames itself, reading a bundle's map when a trace first needs it (host/stack-maps.ts).
 * A small source is bundled here the way scripts/build-host.mjs bundles host mode (esbuild, ESM, linked
 * maps without the sources' text), and its error's frames must name the source file and line.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SOURCE = `export function outer(): never {
  return inner('from the source');
}

function inner(message: string): never {
  throw new Error(message);
}
`;

let dir: string;
let out: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-stack-maps-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'thrower.ts'), SOURCE);
  out = join(dir, 'out');
  await bundle(join(dir, 'src', 'thrower.ts'));
  await bundle(join(import.meta.dirname, '../../../src/main/host/stack-maps.ts'));
});

/** One entry bundled into out/ as scripts/build-host.mjs bundles host mode's. */
async function bundle(entry: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outdir: out,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'silent',
  });
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs `code` in a plain Node process (no --enable-source-maps; vitest's own loader would move the bundle's
 * lines) after it has imported the bundled stack-maps (`installLazyStackMaps`, `LazyMaps`) and thrower
 * (`outer`); answers what the code printed as JSON.
 */
function inChild<T>(code: string): T {
  const script = `
    const { installLazyStackMaps, LazyMaps } = await import(${JSON.stringify(pathToFileURL(join(out, 'stack-maps.mjs')).href)});
    const { outer } = await import(${JSON.stringify(pathToFileURL(join(out, 'thrower.mjs')).href)});
    const OUT = ${JSON.stringify(out)};
    ${code}
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as T;
}

/** Child code: the call sites of outer()'s error, each as V8 writes it and as LazyMaps does. */
const FRAMES = `
  const real = Error.prepareStackTrace;
  Error.prepareStackTrace = (_err, frames) => frames;
  let frames = [];
  try { outer(); } catch (err) { frames = err.stack; }
  Error.prepareStackTrace = real;
  const maps = new LazyMaps(OUT);
  console.log(JSON.stringify(frames.slice(0, 3).map((f) => ({ raw: f.toString(), mapped: maps.frame(f) }))));
`;

describe('host mode stack traces', () => {
  const thrower = () => join(dir, 'src', 'thrower.ts');

  it("maps a bundle's frames to the source's file and line, and leaves other frames as V8 writes them", () => {
    const [thrown, caller, script] = inChild<{ raw: string; mapped: string }[]>(FRAMES);
    expect(thrown?.raw).toContain('thrower.mjs');
    expect(thrown?.mapped).toMatch(new RegExp(`^inner \\(${escape(thrower())}:6:\\d+\\)$`));
    expect(caller?.mapped).toMatch(new RegExp(`^outer \\(${escape(thrower())}:2:\\d+\\)$`));
    // The child's own script is outside the bundles' folder: untouched.
    expect(script?.mapped).toBe(script?.raw);
  });

  it('leaves a frame as it is where the map is unreadable or missing', () => {
    writeFileSync(join(out, 'thrower.mjs.map'), '{ not json');
    const [unreadable] = inChild<{ raw: string; mapped: string }[]>(FRAMES);
    expect(unreadable?.mapped).toBe(unreadable?.raw);
    rmSync(join(out, 'thrower.mjs.map'));
    const [missing] = inChild<{ raw: string; mapped: string }[]>(FRAMES);
    expect(missing?.mapped).toBe(missing?.raw);
  });

  it('writes whole traces with mapped frames once installed', async () => {
    // A fresh bundle (the test above removed the map).
    await bundle(thrower());
    const { enabled, stack } = inChild<{ enabled: boolean; stack: string }>(`
      installLazyStackMaps(OUT);
      try { outer(); } catch (err) { console.log(JSON.stringify({ enabled: process.sourceMapsEnabled, stack: err.stack })); }
    `);
    expect(enabled).toBe(false);
    const lines = stack.split('\n');
    expect(lines[0]).toBe('Error: from the source');
    expect(lines[1]).toMatch(new RegExp(`^    at inner \\(${escape(thrower())}:6:\\d+\\)$`));
    expect(lines[2]).toMatch(new RegExp(`^    at outer \\(${escape(thrower())}:2:\\d+\\)$`));
  });

  it('changes nothing where Node maps traces itself', async () => {
    const r = spawnSync(
      process.execPath,
      [
        '--enable-source-maps',
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(pathToFileURL(join(out, 'stack-maps.mjs')).href)}); const before = Error.prepareStackTrace; m.installLazyStackMaps(${JSON.stringify(out)}); console.log(Error.prepareStackTrace === before);`,
      ],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    expect(r.stdout.trim()).toBe('true');
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
