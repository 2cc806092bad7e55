// Keyterms for BPE transducers as upstream passes them (sherpa-onnx nodejs-addon-examples/
// test_asr_non_streaming_nemo_parakeet_tdt_v2_hotwords.js): raw words in the vocabulary's case, phrases
// split by '/', a bpe.vocab built from tokens.txt, modelingUnit 'bpe'; a live recognizer gets them in its
// config (hotwordsBuf, one phrase a line), since sherpa-onnx-node 1.13.8's online createStream takes none.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ModelManifest } from '../../../src/shared/models/catalog';
import { bpeVocabFile, bpeVocabText, hotwordsFor, offlineConfig, onlineConfig, spell } from '../../../src/engine/recognizer/sherpa/config';
import type { CheckedModel } from '../../../src/engine/recognizer/sherpa/validate';
import { keytermWarning } from '../../../src/engine/recognizer/keyterms';

const checked = (tokens: string[]): CheckedModel => ({
  paths: { encoder: '/m/encoder.onnx', decoder: '/m/decoder.onnx', joiner: '/m/joiner.onnx', tokens: '/m/tokens.txt' },
  metadata: {},
  tokens,
  signature: 's',
});
const manifest = { id: 'p', family: 'nemo-transducer', files: {} } as unknown as ModelManifest;

describe('keyterms for BPE models', () => {
  it('passes raw words, in the case of a one-case vocabulary and as typed for a mixed one', () => {
    const mixed = ['<blk>', '▁Ph', 'oe', 'be', '▁ph', 'e', '▁the', '▁Don', '▁Qu', 'ix', 'ote'];
    expect(hotwordsFor(['Phoebe', 'Don Quixote'], mixed).hotwords).toBe('Phoebe/Don Quixote');
    expect(hotwordsFor(['BOP'], ['<blk>', '▁bop']).hotwords).toBe('bop');
    // A word the vocabulary cannot spell would reach sherpa-onnx as <unk> and drop every hotword: its term is left out.
    expect(hotwordsFor(['bop', 'bop zz'], ['<blk>', '▁bop'])).toEqual({ hotwords: 'bop', added: ['bop', 'bop'], skipped: ['zz'] });
    // ':' starts a score and '/' ends a phrase in sherpa-onnx's hotwords; neither passes.
    expect(hotwordsFor(['bop:3/x'], ['<blk>', '▁bop', '▁bop3x']).hotwords).toBe('bop3x');
  });

  it('spells with the fewest pieces, as a bpe.vocab of equal scores splits', () => {
    const v = new Set(['▁ab', 'c', '▁a', 'bcd']);
    expect(spell('abcd', v)).toEqual(['▁a', 'bcd']);
  });

  it('builds bpe.vocab from the tokens as upstream does (symbol, tab, -1.0) and writes it once per vocabulary', async () => {
    expect(bpeVocabText(['<blk>', '▁bop', '', 'e'])).toBe('<blk>\t-1.0\n▁bop\t-1.0\ne\t-1.0\n');
    const a = await bpeVocabFile(['<blk>', '▁bop']);
    expect(readFileSync(a, 'utf8')).toBe('<blk>\t-1.0\n▁bop\t-1.0\n');
    expect(await bpeVocabFile(['<blk>', '▁bop'])).toBe(a);
    expect(await bpeVocabFile(['<blk>', '▁beep'])).not.toBe(a);
  });

  it('sets modelingUnit bpe and the vocab for a file decode with hotwords, and hotwordsBuf for a live recognizer', () => {
    const c = checked(['<blk>', '▁bop']);
    const off = offlineConfig(manifest, c, { beam: true, bpeVocab: '/tmp/v.vocab' }) as { modelConfig: Record<string, unknown>; decodingMethod: string };
    expect(off.decodingMethod).toBe('modified_beam_search');
    expect(off.modelConfig).toMatchObject({ modelingUnit: 'bpe', bpeVocab: '/tmp/v.vocab', modelType: 'nemo_transducer' });
    expect((offlineConfig(manifest, c, {}) as { modelConfig: Record<string, unknown> }).modelConfig.modelingUnit).toBeUndefined();
    const on = onlineConfig(c, { beam: true, bpeVocab: '/tmp/v.vocab', hotwords: 'bop\nDon Quixote' }) as Record<string, unknown> & {
      modelConfig: Record<string, unknown>;
    };
    expect(on).toMatchObject({ decodingMethod: 'modified_beam_search', hotwordsBuf: 'bop\nDon Quixote', hotwordsBufSize: 15 });
    expect(on.modelConfig).toMatchObject({ modelingUnit: 'bpe', bpeVocab: '/tmp/v.vocab' });
    expect(onlineConfig(c, {}).hotwordsBuf).toBeUndefined();
  });

  it("says what a local model did with the terms, not PocketSphinx's dictionary story", () => {
    expect(keytermWarning({ added: ['bop'], known: [], skipped: ['Zyxw'], by: 'hotwords' })).toBe(
      'keyterms_prompt: the local model favours "bop" while decoding; could not use "Zyxw": the model cannot spell them, so the terms holding them were left out.',
    );
    expect(keytermWarning({ added: [], known: [], skipped: ['x'], by: 'unsupported' })).toMatch(/not used by this model/);
    expect(keytermWarning({ added: ['zendesk'], known: [], skipped: [] })).toMatch(/added "zendesk" to its vocabulary/);
  });
});
