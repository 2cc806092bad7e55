/**
 * What an AssemblyAI model id runs on the engine (models/best.ts): the installed model with the lowest
 * published WER that takes the task and the language; a streaming model first for live captions; none
 * (PocketSphinx) when nothing installed fits. And a close reason is cut at a word, never mid-word.
 */
import { describe, expect, it } from 'vitest';
import { bestLocalModel } from '../../../../src/engine/models/best';
import { closeReason, MAX_CLOSE_REASON_BYTES } from '../../../../src/engine/streaming/params';
import type { ModelManifest } from '../../../../src/shared/models/catalog';

const m = (id: string, family: ModelManifest['family'], languages = ['en'], task: ModelManifest['task'] = 'files'): ModelManifest =>
  ({
    id,
    name: id,
    family,
    languages,
    task,
    files: {},
    wordTimings: 'words',
    sha256: null,
    bytes: 0,
    installedAt: '',
    contextLength: null,
    ramBytes: null,
  }) as ModelManifest;

const installed = [
  m('zipformer-small-en', 'zipformer-transducer'),
  m('parakeet-tdt-0.6b-v2', 'nemo-transducer'),
  m('my-own-model', 'nemo-ctc'),
  m('whisper-small', 'whisper', ['en', 'de', 'fr']),
  m('streaming-zipformer-en', 'streaming-transducer', ['en'], 'live'),
];

describe('the model an AssemblyAI id runs', () => {
  it('files: the lowest published WER for the language; a multilingual model for another language; null when none fits', () => {
    expect(bestLocalModel(installed, 'files', null)?.id).toBe('parakeet-tdt-0.6b-v2');
    expect(bestLocalModel(installed, 'files', 'en_us')?.id).toBe('parakeet-tdt-0.6b-v2');
    expect(bestLocalModel(installed, 'files', 'de')?.id).toBe('whisper-small');
    expect(bestLocalModel(installed, 'files', 'auto')?.id).toBe('whisper-small');
    expect(bestLocalModel(installed, 'files', 'ja')).toBeNull();
    expect(bestLocalModel([], 'files', null)).toBeNull();
    // A model the catalog does not know comes after the ones it does.
    expect(bestLocalModel([m('my-own-model', 'nemo-ctc'), m('zipformer-small-en', 'zipformer-transducer')], 'files', null)?.id).toBe('zipformer-small-en');
  });

  it('live: a streaming model first', () => {
    expect(bestLocalModel(installed, 'live', null)?.id).toBe('streaming-zipformer-en');
    expect(bestLocalModel(installed.slice(0, 2), 'live', null)?.id).toBe('parakeet-tdt-0.6b-v2');
  });

  it('cuts a close reason at a word', () => {
    const reason = `Invalid speech_model: "universal-streaming-multilingual"; the local engine supports universal-streaming-english and u3-rt-pro only`;
    const cut = closeReason(reason);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(MAX_CLOSE_REASON_BYTES);
    expect(cut.endsWith('...')).toBe(true);
    const kept = cut.slice(0, -3);
    expect(reason.startsWith(kept)).toBe(true);
    expect(reason[kept.length]).toMatch(/[\s,;:]/);
    expect(closeReason('short')).toBe('short');
  });
});
