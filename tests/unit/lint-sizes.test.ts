// The size rule of DESIGN.md §2, held by ESLint's max-lines: 400 lines in src/main and src/engine, 450 in the renderer's components, blank lines and comments not counted.
import { resolve, join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

async function sizeErrors(code: string, asPath: string) {
  const eslint = new ESLint({ cwd: root, ignore: false });
  const [result] = await eslint.lintText(code, { filePath: join(root, asPath) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'max-lines');
}

/** A module of `n` code lines, with blank lines and comments between them that must not count. */
function moduleOf(n: number): string {
  const out = ['/** A generated module. */'];
  for (let i = 0; i < n - 1; i++) out.push(`export const v${i} = ${i};`, '', '// a comment', '/* another */');
  out.push(`export const last = ${n};`);
  return out.join('\n') + '\n';
}

describe('max-lines (DESIGN.md §2)', () => {
  for (const path of ['src/main/services/library/big.ts', 'src/engine/routes/big.ts']) {
    it(`rejects 401 code lines in ${path} and allows 400 with any number of blanks and comments`, async () => {
      expect(await sizeErrors(moduleOf(400), path)).toEqual([]);
      const errors = await sizeErrors(moduleOf(401), path);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.message).toMatch(/Maximum allowed is 400/);
    });
  }

  it('allows a renderer component 450 code lines, not 451', async () => {
    const path = 'src/renderer/src/features/subtitles/Big.tsx';
    expect(await sizeErrors(moduleOf(450), path)).toEqual([]);
    const errors = await sizeErrors(moduleOf(451), path);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/Maximum allowed is 450/);
  });

  it('leaves tests and shared modules to their own judgment', async () => {
    expect(await sizeErrors(moduleOf(500), 'src/shared/big.ts')).toEqual([]);
  });
});
