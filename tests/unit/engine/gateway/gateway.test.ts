import { describe, expect, it } from 'vitest';
import { customFormat, formatDate, formatPhone } from '../../../../src/engine/gateway/custom-formatting';
import { bm25, clock, extractiveAnswer, gather } from '../../../../src/engine/gateway/extractive';
import { parseModelJson, validateSchema } from '../../../../src/engine/gateway/json-schema';
import { RateLimiter } from '../../../../src/engine/gateway/rate-limit';
import type { ChatRequest } from '../../../../src/engine/gateway/provider';

const req = (messages: ChatRequest['messages'], transcripts: ChatRequest['transcripts'] = []): ChatRequest => ({
  model: 'verbatim-extractive',
  messages,
  max_tokens: 100,
  stop: [],
  transcripts,
});

describe('rate limiter', () => {
  it('allows the limit per model in a 60 s window, then refuses with Retry-After until the window resets', () => {
    let now = 1_000_000;
    const rl = new RateLimiter(
      () => 2,
      60_000,
      () => now,
    );
    expect(rl.take('m', 'llm-gateway').headers).toMatchObject({
      'X-RateLimit-Limit': '2',
      'X-RateLimit-Remaining': '1',
      'X-RateLimit-Reset': '60',
      'X-RateLimit-Model': 'm',
      'X-RateLimit-Service': 'llm-gateway',
    });
    expect(rl.take('m', 'llm-gateway').allowed).toBe(true);
    now += 15_000;
    const third = rl.take('m', 'llm-gateway');
    expect(third.allowed).toBe(false);
    expect(third.headers['Retry-After']).toBe('45');
    expect(rl.take('other', 'llm-gateway').allowed).toBe(true);
    expect(rl.take('m', 'speech-understanding').allowed).toBe(true);
    now += 45_000;
    expect(rl.take('m', 'llm-gateway').allowed).toBe(true);
  });
});

describe('json schema check', () => {
  const schema = {
    type: 'object',
    properties: { name: { type: 'string', minLength: 1 }, tags: { type: 'array', items: { enum: ['a', 'b'] } }, n: { type: 'integer', minimum: 0 } },
    required: ['name'],
    additionalProperties: false,
  };
  it('accepts a conforming value and names each problem of a wrong one', () => {
    expect(validateSchema(schema, { name: 'x', tags: ['a'], n: 2 })).toEqual([]);
    const errs = validateSchema(schema, { tags: ['c'], n: 1.5, extra: true });
    expect(errs.join('\n')).toMatch(/\$\.name is required/);
    expect(errs.join('\n')).toMatch(/\$\.tags\[0\] should be one of/);
    expect(errs.join('\n')).toMatch(/\$\.n should be integer/);
    expect(errs.join('\n')).toMatch(/\$\.extra is not allowed/);
  });
  it('parses model JSON inside a code fence', () => {
    expect(parseModelJson('```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseModelJson('sure! {').ok).toBe(false);
  });
});

describe('verbatim-extractive', () => {
  const transcript = {
    id: 't1',
    text: 'We met in Lisbon. The contract was signed on Friday. Lunch was fish.',
    sentences: [
      { text: 'We met in Lisbon.', start: 1_000, end: 2_000 },
      { text: 'The contract was signed on Friday.', start: 65_500, end: 68_000 },
      { text: 'Lunch was fish.', start: 3_725_000, end: 3_727_000 },
    ],
  };
  it('ranks the sentence that shares the rare words first (BM25)', () => {
    const scores = bm25(
      'when was the contract signed',
      transcript.sentences.map((s) => ({ text: s.text, start: s.start, source: 't1' })),
    );
    expect(scores.indexOf(Math.max(...scores))).toBe(1);
  });
  it('quotes with start times and says it is extractive', () => {
    const a = extractiveAnswer(req([{ role: 'user', content: 'When was the contract signed?' }], [transcript]));
    expect(a).toMatch(/^This answer is extractive/);
    expect(a).toContain('- [01:05] "The contract was signed on Friday."');
    expect(a).not.toContain('Lisbon');
  });
  it('takes the question apart from pasted text, and says when nothing matches', () => {
    const g = gather(req([{ role: 'user', content: 'The red car is fast. The blue car is slow. Which car is slow?' }]));
    expect(g.question).toBe('Which car is slow?');
    expect(g.passages.map((p) => p.text)).toEqual(['The red car is fast.', 'The blue car is slow.']);
    expect(extractiveAnswer(req([{ role: 'user', content: 'What about zebras?' }], [transcript]))).toMatch(/No sentence matches/);
  });
  it('formats clock times with hours when needed', () => {
    expect(clock(65_500)).toBe('01:05');
    expect(clock(3_725_000)).toBe('1:02:05');
  });
});

describe('custom formatting', () => {
  it('rewrites spoken and written dates, phone numbers and emails', () => {
    const r = customFormat(
      'on march fifth two thousand twenty four call five five five one two three four five six seven or write to john dot smith at example dot org, also 2024-12-01 and 415-555-0100',
      { date: 'dd.mm.yyyy', phone_number: 'xxx-xxx-xxxx', email: 'username@domain.com' },
    );
    expect(r.formatted_text).toBe('on 05.03.2024 call 555-123-4567 or write to john.smith@example.org, also 01.12.2024 and 415-555-0100');
    expect(r.mapping['march fifth two thousand twenty four']).toBe('05.03.2024');
    expect(r.status).toBe('success');
  });
  it('renders patterns', () => {
    expect(formatDate('yyyy-mm-dd', 1999, 7, 4)).toBe('1999-07-04');
    expect(formatDate('m/d/yy', 2024, 3, 5)).toBe('3/5/24');
    expect(formatPhone('(xxx) xxx-xxxx', '14155550100')).toBe('(415) 555-0100');
  });
});
