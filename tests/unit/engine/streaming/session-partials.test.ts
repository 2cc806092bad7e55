/**
 * When a streaming session asks its decoder for hypotheses: real Silero VAD on
 * flite speech, a scripted decoder that knows its first word once it has heard
 * enough audio. Time here is stream time (samples fed), not the wall clock, so
 * the schedule is exact whatever the machine's load.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vadStatus } from '../../../../src/engine/audio/vad';
import type { PartialResult, RecognizedWord, RecognizerStream } from '../../../../src/engine/recognizer/types';
import { DEFAULTS } from '../../../../src/engine/streaming/params';
import { StreamingSession } from '../../../../src/engine/streaming/session';
import type { StreamingServerMessage } from '../../../../src/shared/api/streaming';

const SPM = 16;
/** The scripted decoder has a word once its utterance holds this much audio. */
const WORD_AFTER_MS = 620;

/** Records what it was fed and when it was asked; "hello" once the utterance is long enough, "hello there" 300 ms later. */
class ScriptedDecoder implements RecognizerStream {
  utterance = 0;
  acceptedMs = 0;
  /** Utterance length (ms) at each partial() call, per utterance. */
  asks: number[][] = [[]];
  /** Audio sent to the session (ms) at each partial() call. */
  askedAtFedMs: number[] = [];
  constructor(private readonly fed: () => number) {}
  /** Length of the first audio fed (ms): what the turn started with. */
  firstFeedMs: number | null = null;
  accept(pcm: Int16Array): Promise<void> {
    this.firstFeedMs ??= pcm.length / SPM;
    this.utterance += pcm.length;
    this.acceptedMs += pcm.length / SPM;
    return Promise.resolve();
  }
  partial(): Promise<PartialResult> {
    const ms = this.utterance / SPM;
    this.asks.at(-1)!.push(ms);
    this.askedAtFedMs.push(this.fed());
    return Promise.resolve({ text: ms >= WORD_AFTER_MS + 300 ? 'hello there' : ms >= WORD_AFTER_MS ? 'hello' : '' });
  }
  finish(): Promise<RecognizedWord[]> {
    const words = this.utterance / SPM >= WORD_AFTER_MS ? [{ text: 'hello', start: 300, end: 700, confidence: 0.9 }] : [];
    this.utterance = 0;
    this.asks.push([]);
    return Promise.resolve(words);
  }
  inSpeech(): Promise<boolean> {
    return Promise.resolve(false);
  }
  close(): void {}
}

let dir: string;
let speech: Buffer;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-partials-'));
  execFileSync('flite', ['-voice', 'slt', '-t', 'The meeting starts at nine in the morning.', '-o', join(dir, 's.wav')]);
  execFileSync('sox', [join(dir, 's.wav'), '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-t', 'raw', join(dir, 's.raw')]);
  // One second of silence, the sentence, two seconds of silence: one turn.
  speech = Buffer.concat([Buffer.alloc(32_000), readFileSync(join(dir, 's.raw')), Buffer.alloc(64_000)]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Feeds 50 ms frames, letting the session's promise callbacks run after each, as a socket would. */
async function run(): Promise<{ decoder: ScriptedDecoder; sent: { atMs: number; msg: StreamingServerMessage }[] }> {
  let fedMs = 0;
  const decoder = new ScriptedDecoder(() => fedMs);
  const sent: { atMs: number; msg: StreamingServerMessage }[] = [];
  const session = new StreamingSession(
    { ...DEFAULTS, keyterms: [] },
    decoder,
    { send: (msg) => sent.push({ atMs: fedMs, msg }), close: () => undefined },
    {
      burstMs: 1e9,
      maxSessionMs: 3_600_000,
      useVad: true,
    },
  );
  for (let i = 0; i + 1600 <= speech.length; i += 1600) {
    fedMs += 50;
    session.onMessage(speech.subarray(i, i + 1600), true);
    await new Promise((r) => setImmediate(r));
  }
  session.dispose();
  return { decoder, sent };
}

describe.skipIf(!vadStatus().available)('streaming session: partial hypotheses', () => {
  it('asks for the first hypothesis as soon as speech is confirmed, on the pre-roll it already holds', async () => {
    const { decoder } = await run();
    const asks = decoder.asks[0]!;
    expect(asks.length).toBeGreaterThan(3);
    // The first request covers exactly what the turn was started with (pre-roll and the confirmed speech): no wait for more audio.
    expect(decoder.firstFeedMs).toBeGreaterThanOrEqual(300);
    expect(asks[0]).toBe(decoder.firstFeedMs);
  });

  it('asks again on every 50 ms frame until the turn has a word, then every 100 ms', async () => {
    const { decoder } = await run();
    const asks = decoder.asks[0]!;
    const firstWord = asks.findIndex((ms) => ms >= WORD_AFTER_MS);
    expect(firstWord).toBeGreaterThan(0);
    const before = asks.slice(0, firstWord + 1);
    for (let i = 1; i < before.length; i++) expect(before[i]! - before[i - 1]!).toBe(50);
    const after = asks.slice(firstWord, firstWord + 6);
    for (let i = 1; i < after.length; i++) expect(after[i]! - after[i - 1]!).toBe(100);
  });

  it('sends the first Turn with the word while handling the frame that gave the decoder its word', async () => {
    const { decoder, sent } = await run();
    const firstTurn = sent.find((s) => s.msg.type === 'Turn');
    expect(firstTurn?.msg).toMatchObject({ type: 'Turn', end_of_turn: false, words: [{ text: 'hello', word_is_final: false }] });
    const wordAsk = decoder.asks[0]!.findIndex((ms) => ms >= WORD_AFTER_MS);
    expect(firstTurn!.atMs).toBe(decoder.askedAtFedMs[wordAsk]);
    // The turn ends with the decoder's words once the silence is long enough.
    expect(sent.some((s) => s.msg.type === 'Turn' && s.msg.end_of_turn)).toBe(true);
  });
});
