// NeMo TitaNet speaker embeddings (scripts/nemo/speaker-verification/export-onnx.py's format: no
// normalize_samples, features channels-first with a length, logits then embs) are taken by the checks and
// told two voices apart in the native worker; before, the check refused them for lacking normalize_samples
// and would have read the logits as the embedding. A TitaNet file missing what sherpa-onnx requires of it
// (feat_dim), or whose embs disagree with its output_dim, is still refused, naming the model, before native code reads it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NativeChild } from '../../src/engine/native/child-host';
import { SHERPA_CHILD } from '../../src/engine/recognizer/sherpa/child-kinds';
import { createSpeakerLabels, type SpeakerLabels } from '../../src/engine/recognizer/sherpa/diarize';
import { checkEmbedding } from '../../src/engine/recognizer/sherpa/diarize-check';
import { checkOnnx } from '../../src/engine/recognizer/sherpa/onnx-check';
import { assignSpeakers } from '../../src/engine/text/speakers';
import { conversation, installModel, tinyEmbedding, tinySegmentation } from '../fixtures/models/speakers';

const root = mkdtempSync(join(tmpdir(), 'verbatim-titanet-'));
const open: SpeakerLabels[] = [];
afterAll(() => {
  for (const s of open) s.close();
  rmSync(root, { recursive: true, force: true });
});

async function info(bytes: Uint8Array, name: string) {
  const file = join(root, `${name}.onnx`);
  writeFileSync(file, bytes);
  const o = await checkOnnx(file);
  // What diarization hands the checks (diarize.ts).
  return { metadata: o.metadata, inputs: o.inputInfo, outputs: o.outputInfo };
}

describe('NeMo TitaNet speaker embeddings', () => {
  it('pass the checks without normalize_samples; refused without feat_dim or with a wrong output_dim', async () => {
    expect(checkEmbedding(await info(tinyEmbedding({ nemo: true }), 'ok'))).toEqual({ framework: 'nemo', dim: 2 });
    const noFeat = await info(tinyEmbedding({ nemo: true, omit: ['feat_dim'] }), 'no-feat');
    expect(() => checkEmbedding(noFeat)).toThrow(/lacks the metadata feat_dim/);
    const wrongDim = await info(tinyEmbedding({ nemo: true, declaredDim: 192 }), 'dim');
    expect(() => checkEmbedding(wrongDim)).toThrow(/output has 2 values, but its metadata output_dim says 192/);
    // A WeSpeaker model still needs normalize_samples.
    const wespeaker = await info(tinyEmbedding({ omit: ['normalize_samples'] }), 'wespeaker');
    expect(() => checkEmbedding(wespeaker)).toThrow(/normalize_samples/);
  });

  it('tell two voices apart in a diarization run', async () => {
    const dir = join(root, 'models');
    installModel(dir, 'tiny-segmentation', 'segmentation', tinySegmentation());
    installModel(dir, 'tiny-titanet', 'embedding', tinyEmbedding({ nemo: true }));
    const s = createSpeakerLabels(dir, new NativeChild({ ...SHERPA_CHILD, name: 'speaker diarization' }));
    open.push(s);
    const { pcm, tones } = conversation(['A', 'B', 'A', 'B']);
    const raw = join(root, 'audio.raw');
    writeFileSync(raw, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
    const models = await s.models();
    if ('missing' in models) throw new Error(models.missing);
    const { turns } = await s.diarize({ rawPath: raw, samples: pcm.length, counts: { expected: null, min: null, max: null }, models });
    const words = assignSpeakers(
      tones.map((t) => ({ text: t.word, start: t.start, end: t.end, confidence: 0.9, speaker: null, channel: null })),
      turns,
    );
    expect(words.map((w) => w.speaker)).toEqual(tones.map((t) => t.voice));
  });
});
