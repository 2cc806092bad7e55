/**
 * The one wire schema (src/shared/api): strict for what the engine accepts,
 * loose for what main's clients read, so a newer service's fields pass.
 */
import { describe, expect, it } from 'vitest';
import { ChatCompletionRequestSchema, errorMessageOf } from '../../../src/shared/api/gateway';
import { StreamingServerMessageLooseSchema, TurnSchema } from '../../../src/shared/api/streaming';
import { firstIssue, TranscriptRequestSchema, TranscriptResponseSchema } from '../../../src/shared/api/transcript';

const reason = (body: unknown): string | null => {
  const r = TranscriptRequestSchema.safeParse(body);
  return r.success ? null : firstIssue(r.error);
};

describe('the create request (strict)', () => {
  it('names unknown parameters', () => {
    expect(reason({ audio_url: 'http://x/a.wav', bogus: 1, other: 2 })).toBe('Unknown parameter bogus, other.');
  });

  it('accepts every parameter the official SDK can send, including the older single speech_model', () => {
    for (const m of ['best', 'nano', 'slam-1', 'universal', 'universal-2']) expect(reason({ audio_url: 'http://x/a.wav', speech_model: m })).toBeNull();
    expect(
      reason({
        audio_url: 'http://x/a.wav',
        keyterms_prompt_options: { keyterms_match_strength: 'high' },
        remove_audio_tags: null,
        domain: null,
        redact_pii_return_unredacted: false,
      }),
    ).toBeNull();
  });

  it('refuses windows that cannot be: audio_end_at 0, audio_start_from 1e300, end before start', () => {
    expect(reason({ audio_url: 'http://x/a.wav', audio_end_at: 0 })).toMatch(/^audio_end_at must be a positive integer/);
    expect(reason({ audio_url: 'http://x/a.wav', audio_start_from: 1e300 })).toMatch(/^audio_start_from must be a non-negative integer/);
    expect(reason({ audio_url: 'http://x/a.wav', audio_start_from: 1.5 })).toMatch(/^audio_start_from/);
    expect(reason({ audio_url: 'http://x/a.wav', audio_start_from: 10, audio_end_at: 10 })).toBe('audio_end_at must be greater than audio_start_from.');
  });

  it('says what is wrong with a value, by parameter', () => {
    expect(reason({})).toMatch(/^audio_url is required/);
    expect(reason({ audio_url: 5 })).toBe('audio_url must be a string.');
    expect(reason({ audio_url: 'http://x/a.wav', speech_models: ['nano'] })).toMatch(/^speech_models: unknown model "nano"/);
    expect(reason({ audio_url: 'http://x/a.wav', webhook_auth_header_name: 'X-A' })).toMatch(/given together/);
    expect(reason({ audio_url: 'http://x/a.wav', redact_pii_audio: true })).toMatch(/needs redact_pii/);
  });
});

describe('answers as a client reads them (loose)', () => {
  it('keeps unknown fields and needs only id and status', () => {
    const t = TranscriptResponseSchema.parse({
      id: 'a',
      status: 'completed',
      text: 'hi',
      words: [{ text: 'hi', start: 0, end: 10, confidence: 0.9, a_new_word_field: 1 }],
      a_new_field: { x: 1 },
    });
    expect((t as Record<string, unknown>).a_new_field).toEqual({ x: 1 });
    expect(t.words?.[0]?.speaker).toBeUndefined();
    expect(TranscriptResponseSchema.safeParse({ id: 'a' }).success).toBe(false);
  });

  it('reads streaming messages with fields it does not know', () => {
    const m = StreamingServerMessageLooseSchema.parse({
      type: 'Turn',
      turn_order: 0,
      turn_is_formatted: false,
      end_of_turn: false,
      transcript: '',
      end_of_turn_confidence: 0.1,
      words: [],
      language_code: 'en',
    });
    expect(m.type).toBe('Turn');
    expect(TurnSchema.safeParse({ ...m }).success).toBe(false);
  });

  it('lets chat requests carry the knobs OpenAI-style clients send', () => {
    expect(ChatCompletionRequestSchema.safeParse({ model: 'm', messages: [{ role: 'user', content: 'hi' }], top_p: 0.9, seed: 1 }).success).toBe(true);
    expect(ChatCompletionRequestSchema.safeParse({ model: 'm', messages: [{ role: 'robot', content: 'hi' }] }).success).toBe(false);
  });
});

describe('the gateway request and error bodies', () => {
  it("accepts the spec's prompt form instead of messages, but not both and not neither", () => {
    expect(ChatCompletionRequestSchema.safeParse({ model: 'm', prompt: 'Write a haiku' }).success).toBe(true);
    const both = ChatCompletionRequestSchema.safeParse({ model: 'm', prompt: 'x', messages: [{ role: 'user', content: 'y' }] });
    expect(both.success ? null : firstIssue(both.error)).toBe('Send either messages or prompt, not both.');
    const neither = ChatCompletionRequestSchema.safeParse({ model: 'm' });
    expect(neither.success ? null : firstIssue(neither.error)).toBe('messages must be a non-empty array of {role, content} (or send prompt, a string).');
  });

  it('takes stop as a string or up to four strings, and max_completion_tokens as a positive integer', () => {
    const ok = (extra: object) => ChatCompletionRequestSchema.safeParse({ model: 'm', prompt: 'x', ...extra }).success;
    expect(ok({ stop: 'END' })).toBe(true);
    expect(ok({ stop: ['a', 'b', 'c', 'd'] })).toBe(true);
    expect(ok({ stop: null })).toBe(true);
    expect(ok({ stop: ['a', 'b', 'c', 'd', 'e'] })).toBe(false);
    expect(ok({ stop: '' })).toBe(false);
    expect(ok({ max_completion_tokens: 5 })).toBe(true);
    expect(ok({ max_completion_tokens: 0 })).toBe(false);
  });

  it('reads an error message from either shape a service sends', () => {
    expect(errorMessageOf({ error: 'Transcript not found' })).toBe('Transcript not found');
    expect(errorMessageOf({ error: { message: 'Unknown model', type: 'invalid_request_error', code: 400 } })).toBe('Unknown model');
    expect(errorMessageOf({ message: 'Bad gateway' })).toBe('Bad gateway');
    expect(errorMessageOf({ error: { code: 500 } })).toBeNull();
    expect(errorMessageOf('plain text')).toBeNull();
  });
});
