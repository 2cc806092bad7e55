// The checks before sherpa-onnx reads a model (it exits the process on missing metadata): the new families'
// required metadata (SenseVoice's lang_*/ITN ids) and a streaming Zipformer v1's T and decode_chunk_len
// (the 20M live model's encoder), each refused naming what is missing, and the fixtures accepted.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODEL_MANIFEST_FILE, type ModelManifest } from '../../../src/shared/models/catalog';
import { checkModelFiles } from '../../../src/engine/recognizer/sherpa/validate';
import { OnnxGraph } from '../../fixtures/models/onnx';
import { writeTinyModel } from '../../fixtures/models/speech';

const root = mkdtempSync(join(tmpdir(), 'verbatim-families-check-'));
const manifestOf = (dir: string): ModelManifest => JSON.parse(readFileSync(join(dir, MODEL_MANIFEST_FILE), 'utf8')) as ModelManifest;

function encoderWith(meta: Record<string, string | number>): Uint8Array {
  const g = new OnnxGraph();
  g.input('x', 'float', [1, 2]);
  g.output(g.node('Identity', ['x']), 'float', [1, 2], 'y');
  return g.toBytes(meta);
}

describe('family checks', () => {
  it('takes the SenseVoice and Moonshine v2 fixtures, and refuses a SenseVoice model without its language ids', async () => {
    for (const kind of ['sense-voice', 'moonshine-v2'] as const) {
      const dir = writeTinyModel(root, kind);
      await expect(checkModelFiles(dir, manifestOf(dir))).resolves.toMatchObject({ paths: expect.any(Object) });
    }
    const dir = writeTinyModel(root, 'sense-voice', 'sv-no-lang');
    writeFileSync(join(dir, 'model.int8.onnx'), encoderWith({ vocab_size: 7, lfr_window_size: 7, lfr_window_shift: 6, normalize_samples: 0 }));
    await expect(checkModelFiles(dir, manifestOf(dir))).rejects.toThrow(/lacks the metadata "with_itn"/);
  });

  it('refuses a streaming Zipformer v1 encoder without T, and takes it with T and decode_chunk_len', async () => {
    const dir = writeTinyModel(root, 'streaming-lstm', 'zipformer-v1');
    const m = manifestOf(dir);
    writeFileSync(join(dir, m.files.encoder as string), encoderWith({ model_type: 'zipformer', decode_chunk_len: 32 }));
    await expect(checkModelFiles(dir, m)).rejects.toThrow(/lacks the metadata "T"/);
    writeFileSync(join(dir, m.files.encoder as string), encoderWith({ model_type: 'zipformer', decode_chunk_len: 32, T: 39 }));
    await expect(checkModelFiles(dir, m)).resolves.toMatchObject({ metadata: { encoder: { model_type: 'zipformer' } } });
  });

  it('takes Moonshine v2 as upstream ships it (.ort files: FlatBuffer identifier ORTM), and refuses an .ort that is not', async () => {
    const dir = writeTinyModel(root, 'moonshine-v2', 'moonshine-v2-ort');
    const m = manifestOf(dir);
    // A FlatBuffer's first word is its root table's offset, then the 4-byte file identifier.
    const ort = (id: string) => Buffer.concat([Buffer.from([16, 0, 0, 0]), Buffer.from(id, 'latin1'), Buffer.alloc(64)]);
    writeFileSync(join(dir, 'encoder_model.ort'), ort('ORTM'));
    writeFileSync(join(dir, 'decoder_model_merged.ort'), ort('ORTM'));
    const shipped = { ...m, files: { ...m.files, encoder: 'encoder_model.ort', mergedDecoder: 'decoder_model_merged.ort' } };
    await expect(checkModelFiles(dir, shipped)).resolves.toMatchObject({ paths: { encoder: join(dir, 'encoder_model.ort') } });
    writeFileSync(join(dir, 'decoder_model_merged.ort'), readFileSync(join(dir, m.files.mergedDecoder as string)));
    await expect(checkModelFiles(dir, shipped)).rejects.toThrow(/mergedDecoder file decoder_model_merged\.ort is damaged .*not in the \.ort format/);
    writeFileSync(join(dir, 'encoder_model.ort'), ort('ORTM').subarray(0, 6));
    await expect(checkModelFiles(dir, shipped)).rejects.toThrow(/encoder file encoder_model\.ort is damaged/);
  });
});
