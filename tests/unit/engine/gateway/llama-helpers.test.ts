/** The local provider's pure helpers: chat history from messages, text cut to fit a context, the speaker schema, and map-reduce's parts. */
import { describe, expect, it } from 'vitest';
import { chunkText, speakerSchema, toHistory } from '../../../../src/engine/gateway/llama';
import { actionLines, cutParts } from '../../../../src/main/services/chat/summarise';
import type { ChatRequest } from '../../../../src/engine/gateway/provider';

const req = (messages: ChatRequest['messages']): ChatRequest => ({ model: 'm', messages, max_tokens: 10, stop: [], transcripts: [] });

describe('local model helpers', () => {
  it('turns messages into a history and the last user message as the prompt', () => {
    const { history, prompt } = toHistory(
      req([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'First?' },
        { role: 'assistant', content: 'One.' },
        { role: 'user', content: 'Second?' },
      ]),
    );
    expect(history).toEqual([
      { type: 'system', text: 'Be brief.' },
      { type: 'user', text: 'First?' },
      { type: 'model', response: ['One.'] },
    ]);
    expect(prompt).toBe('Second?');
  });

  it('cuts text at sentence ends into pieces that fit, and a sentence too long where it must', () => {
    const pieces = chunkText('One two. Three four five. Six.', 12);
    expect(pieces).toEqual(['One two.', 'Three four', 'five. Six.']);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(12);
    expect(chunkText('', 10)).toEqual(['']);
  });

  it('asks for every speaker label and nothing else', () => {
    expect(speakerSchema(['A', 'B'])).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'speakers',
        schema: { type: 'object', properties: { A: { type: 'string' }, B: { type: 'string' } }, required: ['A', 'B'], additionalProperties: false },
      },
    });
  });

  it('labels every line of a transcript and cuts the lines into parts of the budget', () => {
    const lines = actionLines([
      {
        recordingId: 'r',
        label: 'Standup',
        sentences: [
          { startMs: 0, text: 'Hello  there.' },
          { startMs: 65_000, text: 'Ship it.' },
        ],
      },
    ]);
    expect(lines).toEqual(['[Standup @ 00:00] Hello there.', '[Standup @ 01:05] Ship it.']);
    const parts = cutParts(['aaaa', 'bbbb', 'cccc', 'dddddddddddd'], 10);
    expect(parts).toEqual([['aaaa', 'bbbb'], ['cccc'], ['dddddddddd'], ['dd']]);
    for (const p of parts) expect(p.join('\n').length).toBeLessThanOrEqual(10);
  });
});
