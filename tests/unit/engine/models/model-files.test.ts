// Model files the engine reads itself before native code does: tokens.txt as upstream writes it (Moonshine's
// `symbol<TAB>id`, sherpa-onnx's id-only line for the space token) and refused at once when an id is absurd;
// GGUF and ONNX files only when they are regular files (a link or a FIFO is refused, never followed or waited on).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ModelManifest } from '../../../../src/shared/models/catalog';
import { checkGguf, GgufError } from '../../../../src/engine/gateway/gguf-check';
import { checkOnnx } from '../../../../src/engine/recognizer/sherpa/onnx-check';
import { ModelFileError, readTokens } from '../../../../src/engine/recognizer/sherpa/validate';
import { tinyGguf } from '../../../fixtures/models/gguf';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-model-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const moonshine = { id: 'moonshine-tiny-test', family: 'moonshine' } as ModelManifest;

function tokensFile(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('tokens.txt', () => {
  it('reads tab-separated tokens as upstream Moonshine writes them (scripts/moonshine/export-onnx.py)', async () => {
    const p = tokensFile('moonshine-tokens.txt', '<unk>\t0\n<s>\t1\n</s>\t2\n▁the\t3\n▁cat\t4\n');
    expect(await readTokens(moonshine, p)).toEqual(['<unk>', '<s>', '</s>', '▁the', '▁cat']);
  });

  it('reads a line holding only an id as the space token, as sherpa-onnx does (csrc/symbol-table.cc)', async () => {
    const p = tokensFile('space-tokens.txt', '<blk> 0\n1\n▁a 2\r\n');
    expect(await readTokens(moonshine, p)).toEqual(['<blk>', ' ', '▁a']);
  });

  it('keeps a symbol that is itself a Unicode space', async () => {
    const p = tokensFile('nbsp-tokens.txt', '<blk> 0\n\u00a0 1\n');
    expect(await readTokens(moonshine, p)).toEqual(['<blk>', '\u00a0']);
  });

  it('refuses a huge id at once, naming the model, rather than building a table that large', async () => {
    for (const id of ['130000000', '4000000000']) {
      const p = tokensFile(`huge-${id}.txt`, `▁a 0\n▁b 1\n▁c 2\n<blk> ${id}\n`);
      const err = await readTokens(moonshine, p).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ModelFileError);
      expect((err as Error).message).toMatch(new RegExp(`^The model moonshine-tiny-test cannot be used: its tokens.txt line 4 gives the id ${id}`));
      expect((err as Error).message).not.toMatch(/fault of the engine/);
    }
  });

  it('refuses a tokens.txt that is a FIFO or a device, naming the model', async () => {
    const f = join(dir, 'fifo-tokens.txt');
    execFileSync('mkfifo', [f]);
    await expect(readTokens(moonshine, f)).rejects.toThrow(/moonshine-tiny-test.*tokens.txt is a FIFO/);
    await expect(readTokens(moonshine, '/dev/zero')).rejects.toThrow(/moonshine-tiny-test.*tokens.txt is a device/);
  });
});

describe('GGUF and ONNX files are read only as regular files', () => {
  it('refuses a model.gguf that is a link (even to a good model) or a FIFO', async () => {
    const real = join(dir, 'real.gguf');
    writeFileSync(real, tinyGguf());
    expect((await checkGguf(real)).architecture).toBeTruthy();
    const link = join(dir, 'link.gguf');
    symlinkSync(real, link);
    await expect(checkGguf(link)).rejects.toThrow(GgufError);
    await expect(checkGguf(link)).rejects.toThrow(/is a link/);
    const fifo = join(dir, 'fifo.gguf');
    execFileSync('mkfifo', [fifo]);
    await expect(checkGguf(fifo)).rejects.toThrow(/is a FIFO/);
  });

  it('refuses an .onnx that is a FIFO without waiting for a writer', async () => {
    const fifo = join(dir, 'fifo.onnx');
    execFileSync('mkfifo', [fifo]);
    await expect(checkOnnx(fifo)).rejects.toThrow(/not a usable ONNX model: it is a FIFO/);
  });
});
