// lib/modelName: a chat model is shown by its name, never by its id when a name is known.
import { describe, expect, it } from 'vitest';
import { chatModelName } from '../../../../src/renderer/src/lib/modelName';

describe('a chat model by its name', () => {
  it('names a catalog model by its catalog name, even before the service lists it', () => {
    expect(chatModelName('qwen2.5-0.5b-instruct')).toBe('Qwen2.5 0.5B Instruct (Q4_K_M)');
    expect(chatModelName('qwen2.5-0.5b-instruct', [{ id: 'qwen2.5-0.5b-instruct', name: 'qwen2.5-0.5b-instruct' }])).toBe('Qwen2.5 0.5B Instruct (Q4_K_M)');
  });

  it('names a model installed by hand (a folder name as its id) by the name the service lists', () => {
    expect(chatModelName('my-llama-folder', [{ id: 'my-llama-folder', name: 'My Llama 3 8B' }])).toBe('My Llama 3 8B');
  });

  it('falls back to the id only when no name is known', () => {
    expect(chatModelName('gpt-x')).toBe('gpt-x');
  });
});
