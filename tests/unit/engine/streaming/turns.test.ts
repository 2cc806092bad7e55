import { describe, expect, it } from 'vitest';
import { applyTunables, DEFAULTS, frameMs, parseParams, StreamingClose } from '../../../../src/engine/streaming/params';
import { endOfTurnConfidence, formatWords, PartialTracker } from '../../../../src/engine/streaming/turns';
import { TokenStore } from '../../../../src/engine/streaming/tokens';

describe('streaming parameters', () => {
  it('uses the documented defaults', () => {
    expect(parseParams(new URLSearchParams())).toEqual(DEFAULTS);
  });
  it('accepts every documented parameter and the old min-silence name', () => {
    const p = parseParams(
      new URLSearchParams(
        'sample_rate=8000&encoding=pcm_mulaw&speech_model=u3-rt-pro&format_turns=true&end_of_turn_confidence_threshold=0.7&min_end_of_turn_silence_when_confident=300&max_turn_silence=2000&keyterms_prompt=["Verbatim"]&inactivity_timeout=30',
      ),
    );
    expect(p).toMatchObject({
      sampleRate: 8000,
      encoding: 'pcm_mulaw',
      speechModel: 'u3-rt-pro',
      formatTurns: true,
      endOfTurnConfidenceThreshold: 0.7,
      minTurnSilence: 300,
      maxTurnSilence: 2000,
      keyterms: ['Verbatim'],
      inactivityTimeout: 30,
    });
  });
  it('rejects bad values with close code 3006 and a reason naming the parameter', () => {
    for (const q of ['sample_rate=7', 'encoding=flac', 'speech_model=best', 'min_turn_silence=900&max_turn_silence=500', 'language_detection=true']) {
      try {
        parseParams(new URLSearchParams(q));
        expect.unreachable(q);
      } catch (err) {
        expect(err).toBeInstanceOf(StreamingClose);
        expect((err as StreamingClose).code).toBe(3006);
        expect((err as Error).message.length).toBeLessThanOrEqual(123);
      }
    }
  });
  it('applies UpdateConfiguration tunables', () => {
    const t = { ...DEFAULTS, keyterms: [] };
    applyTunables(t, { max_turn_silence: 3000, format_turns: true });
    expect(t.maxTurnSilence).toBe(3000);
    expect(t.formatTurns).toBe(true);
  });
  it('measures frames in ms for both encodings', () => {
    expect(frameMs(1600, { sampleRate: 16000, encoding: 'pcm_s16le' })).toBe(50);
    expect(frameMs(400, { sampleRate: 8000, encoding: 'pcm_mulaw' })).toBe(50);
    expect(frameMs(1601, { sampleRate: 16000, encoding: 'pcm_s16le' })).toBeNull();
  });
});

describe('turn bookkeeping', () => {
  it('makes a word final only once it is stable over three partials and not the newest', () => {
    const t = new PartialTracker();
    t.update('the', 0, 300, false);
    t.update('the quick', 0, 600, false);
    const third = t.update('the quick brown', 0, 900, false);
    expect(third.map((w) => w.word_is_final)).toEqual([true, false, false]);
    const fourth = t.update('the quick brown fox', 0, 1200, false);
    expect(fourth.map((w) => [w.text, w.word_is_final])).toEqual([
      ['the', true],
      ['quick', true],
      ['brown', false],
      ['fox', false],
    ]);
    t.update('the quick brown fox', 0, 1300, false);
    const settled = t.update('the quick brown fox', 0, 1400, true);
    expect(settled.every((w) => w.word_is_final)).toBe(true);
    for (let i = 1; i < settled.length; i++) expect((settled[i] as { start: number }).start).toBeGreaterThanOrEqual((settled[i - 1] as { end: number }).end);
  });
  it('never changes a final word afterwards', () => {
    const t = new PartialTracker();
    for (let i = 0; i < 3; i++) t.update('hello world again', 0, 900, false);
    const next = t.update('yellow world again today', 0, 1200, false);
    expect(next[0]).toMatchObject({ text: 'hello', word_is_final: true });
  });
  it('is more confident the longer the silence, and less after a continuer', () => {
    const c = (s: number, w: string) => endOfTurnConfidence(s, w, 400, 1280);
    expect(c(0, 'today')).toBeLessThan(0.1);
    expect(c(400, 'today')).toBeGreaterThanOrEqual(0.5);
    expect(c(400, 'the')).toBeLessThan(0.4);
    expect(c(1280, 'today')).toBe(1);
  });
  it('formats a final turn with a capital and end punctuation', () => {
    const w = (text: string) => ({ text, start: 0, end: 1, confidence: 1, word_is_final: true });
    expect(
      formatWords([w('i'), w('think'), w('so')])
        .map((x) => x.text)
        .join(' '),
    ).toBe('I think so.');
    expect(
      formatWords([w('where'), w('is'), w('it')])
        .map((x) => x.text)
        .join(' '),
    ).toBe('Where is it?');
  });
  it('capitalises weekdays and months in a formatted turn as the batch formatter does', () => {
    const w = (text: string) => ({ text, start: 0, end: 1, confidence: 1, word_is_final: true });
    expect(
      formatWords([w('see'), w('you'), w('on'), w('monday'), w('in'), w('march')])
        .map((x) => x.text)
        .join(' '),
    ).toBe('See you on Monday in March.');
    expect(
      formatWords([w('you'), w('may'), w('go')])
        .map((x) => x.text)
        .join(' '),
    ).toBe('You may go.');
  });
});

describe('temporary tokens', () => {
  it('are single use and expire', () => {
    const s = new TokenStore();
    const a = s.mint(60, 120, 1000);
    expect(s.consume(a, 2000)).toEqual({ ok: true, maxSessionSeconds: 120 });
    expect(s.consume(a, 2000).ok).toBe(false);
    const b = s.mint(1, null, 1000);
    const r = s.consume(b, 2500);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toMatch(/expired/);
  });
});
