/**
 * What the renderer loads before the library shows: every module reached by static imports from main.tsx and
 * mount.tsx (the chunk main.tsx preloads). Host-mode cold start doubled when zod (through shared/voices/names.ts)
 * and the subtitle reader with the HTML entity table (through LibraryScreen's import of lib/subtitleFile) joined
 * that set; they load when a screen or an action needs them (a dynamic import()).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const src = join(root, 'src/renderer/src');

/** Static imports and re-exports of a module (`import type` and `export type` load nothing; `import()` is not static). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^;'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) specs.push(m[1]!);
  return specs;
}

function resolveLocal(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')])
    if (existsSync(candidate) && /\.(ts|tsx)$/.test(candidate)) return candidate;
  return undefined;
}

/** Every local module and package reached from the entries by static imports. */
function startupGraph(entries: string[]): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (modules.has(file)) continue;
    modules.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) {
        const next = resolveLocal(file, spec);
        if (next) queue.push(next);
      } else packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  }
  return { modules, packages };
}

describe('the renderer start', () => {
  const { modules, packages } = startupGraph([join(src, 'main.tsx'), join(src, 'mount.tsx')]);

  it('reaches the app shell, the library screen and the stores', () => {
    expect(modules.has(join(src, 'App.tsx'))).toBe(true);
    expect([...modules].some((m) => m.endsWith('LibraryScreen.tsx'))).toBe(true);
    expect(packages.has('react')).toBe(true);
  });

  it('loads neither zod nor the HTML entity table', () => {
    expect([...packages].filter((p) => p === 'zod' || p === 'entities')).toEqual([]);
  });

  it('loads no subtitle reader or parser', () => {
    const subtitleModules = [...modules]
      .map((m) => m.slice(root.length + 1))
      .filter((m) => m.startsWith('src/shared/subtitles/') || m.endsWith('lib/subtitleFile.ts'));
    expect(subtitleModules).toEqual([]);
  });
});
