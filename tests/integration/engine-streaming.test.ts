/**
 * Streaming v3 over a real WebSocket against the real engine (PocketSphinx +
 * Silero VAD), fed flite speech generated at test time, replayed at real time.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningEngine } from '../../src/engine/server';
import { engineSandbox, type EngineSandbox } from '../support/engine';
import { encodeMulaw } from '../../src/engine/streaming/mulaw';

const KEY = 'stream-test-key';
const SENTENCE_1 = 'Hello, this is the first sentence about the weather today.';
const SENTENCE_2 = 'And here comes the second sentence about my brown dog.';

let sandbox: EngineSandbox;
let dir: string;
let engine: RunningEngine;
let wsBase: string;
let twoSentences: Buffer;
let firstOnly: Buffer;
let pauseAt: number;

type Msg = Record<string, unknown> & { type: string };
interface StreamWord {
  text: string;
  start: number;
  end: number;
  confidence: number;
  word_is_final: boolean;
}

function pcmOf(file: string): Buffer {
  const raw = join(dir, `${file}.raw`);
  execFileSync('sox', [join(dir, file), '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-t', 'raw', raw]);
  return readFileSync(raw);
}

function connect(
  query = '',
  headers: Record<string, string> = { Authorization: KEY },
  base = wsBase,
): { ws: WebSocket; messages: Msg[]; closed: Promise<{ code: number; reason: string }>; next: (type: string, timeoutMs?: number) => Promise<Msg> } {
  const ws = new WebSocket(`${base}/v3/ws${query}`, { headers });
  const messages: Msg[] = [];
  const waiters: { type: string; resolve: (m: Msg) => void }[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString()) as Msg;
    messages.push(m);
    for (const w of waiters.filter((x) => x.type === m.type)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(m);
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const next = (type: string, timeoutMs = 60_000) =>
    new Promise<Msg>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no ${type} within ${timeoutMs} ms; got ${messages.map((m) => m.type).join(',')}`)), timeoutMs);
      waiters.push({
        type,
        resolve: (m) => {
          clearTimeout(t);
          resolve(m);
        },
      });
    });
  return { ws, messages, closed, next };
}

/** Sends PCM in 50 ms frames at real time (the last frame padded with silence). */
async function replay(ws: WebSocket, pcm: Buffer, frameBytes = 1600, frameMs = 50, stopAfterMs = Infinity): Promise<void> {
  const start = Date.now();
  let sent = 0;
  for (let i = 0; i < pcm.length && sent * frameMs < stopAfterMs; i += frameBytes, sent++) {
    let frame = pcm.subarray(i, i + frameBytes);
    if (frame.length < frameBytes) frame = Buffer.concat([frame, Buffer.alloc(frameBytes - frame.length)]);
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(frame);
    const due = start + (sent + 1) * frameMs - Date.now();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
  }
}

beforeAll(async () => {
  sandbox = engineSandbox('verbatim-stream-');
  dir = sandbox.dir;
  execFileSync('flite', ['-voice', 'slt', '-t', SENTENCE_1, '-o', join(dir, 's1.wav')]);
  execFileSync('flite', ['-voice', 'slt', '-t', SENTENCE_2, '-o', join(dir, 's2.wav')]);
  const s1 = pcmOf('s1.wav');
  const s2 = pcmOf('s2.wav');
  const silence = (ms: number) => Buffer.alloc(ms * 32);
  pauseAt = (500 + s1.length / 32) | 0;
  twoSentences = Buffer.concat([silence(500), s1, silence(1500), s2, silence(1200)]);
  firstOnly = s1;
  engine = await sandbox.start(KEY, { streaming: { maxSessions: 3, burstMs: 3000 } });
  wsBase = engine.url.replace(/^http/, 'ws');
});

afterAll(() => sandbox.cleanup());

describe('streaming v3 session', () => {
  it('streams two sentences at real time: Begin, growing Turns, end_of_turn at the pause, formatted turns, Termination, close 1000', async () => {
    const c = connect('?sample_rate=16000&encoding=pcm_s16le&format_turns=true');
    const begin = await c.next('Begin');
    expect(begin.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(begin.expires_at).toBeGreaterThan(Date.now() / 1000);
    await replay(c.ws, twoSentences);
    c.ws.send(JSON.stringify({ type: 'Terminate' }));
    const term = await c.next('Termination');
    const { code } = await c.closed;
    expect(code).toBe(1000);
    expect(term.audio_duration_seconds).toBe(Math.round(twoSentences.length / 32000));
    expect(term.session_duration_seconds).toBeGreaterThanOrEqual(Math.floor(twoSentences.length / 32000));
    expect(c.messages[0]?.type).toBe('Begin');
    expect(c.messages.at(-1)?.type).toBe('Termination');

    const turns = c.messages.filter((m) => m.type === 'Turn');
    // Partials came before the first end of turn, with tentative and final words.
    const firstEnd = turns.findIndex((t) => t.end_of_turn === true);
    expect(firstEnd).toBeGreaterThan(0);
    expect(turns.slice(0, firstEnd).some((t) => (t.words as StreamWord[]).some((w) => !w.word_is_final))).toBe(true);
    expect(turns.slice(0, firstEnd).some((t) => (t.words as StreamWord[]).some((w) => w.word_is_final))).toBe(true);

    for (const t of turns) {
      const words = t.words as StreamWord[];
      for (let i = 0; i < words.length; i++) {
        const w = words[i] as StreamWord;
        expect(w.end).toBeGreaterThanOrEqual(w.start);
        if (i > 0) expect(w.start).toBeGreaterThanOrEqual((words[i - 1] as StreamWord).start);
      }
      // Final words come before tentative ones; transcript holds the final words.
      const finals = words.filter((w) => w.word_is_final);
      expect(words.slice(0, finals.length).every((w) => w.word_is_final)).toBe(true);
      if (!t.turn_is_formatted) expect(t.transcript).toBe(finals.map((w) => w.text).join(' '));
    }

    const ends = turns.filter((t) => t.end_of_turn === true && t.turn_is_formatted === false);
    const formatted = turns.filter((t) => t.turn_is_formatted === true);
    expect(ends.map((t) => t.turn_order)).toEqual([0, 1]);
    expect(formatted.map((t) => t.turn_order)).toEqual([0, 1]);
    const [end0, end1] = ends as [Msg, Msg];
    expect(end0.transcript).toMatch(/weather/);
    expect(end1.transcript).toMatch(/second sentence/);
    // The first turn ended at the pause: its words lie before it, the second turn's after it.
    const w0 = end0.words as StreamWord[];
    const w1 = end1.words as StreamWord[];
    expect((w0.at(-1) as StreamWord).end).toBeLessThanOrEqual(pauseAt + 300);
    expect((w1[0] as StreamWord).start).toBeGreaterThanOrEqual(pauseAt + 1000);
    expect(w0.every((w) => w.word_is_final) && w1.every((w) => w.word_is_final)).toBe(true);
    // Turn 0's end arrives before anything of turn 1; each formatted turn follows its unformatted twin.
    expect(turns.indexOf(end0)).toBeLessThan(turns.findIndex((t) => t.turn_order === 1));
    for (const f of formatted) {
      const twin = ends.find((e) => e.turn_order === f.turn_order) as Msg;
      expect(turns.indexOf(f)).toBe(turns.indexOf(twin) + 1);
      expect(f.end_of_turn).toBe(true);
      expect(f.transcript).toMatch(/^[A-Z].*[.?!]$/);
      expect((f.transcript as string).toLowerCase().replace(/[.?!]$/, '')).toBe(twin.transcript);
    }
    expect(end0.end_of_turn_confidence as number).toBeGreaterThanOrEqual(0.4);
  });

  it('ends the turn at once on ForceEndpoint, then keeps listening', async () => {
    const c = connect('?sample_rate=16000');
    await c.next('Begin');
    await replay(c.ws, firstOnly, 1600, 50, 2000);
    // Shown by order, not by time: the audio stops mid-sentence, so no silence can end the turn
    // (the engine has no wall-clock endpointing); only ForceEndpoint can.
    expect(c.messages.some((m) => m.type === 'Turn' && m.end_of_turn === true)).toBe(false);
    c.ws.send(JSON.stringify({ type: 'ForceEndpoint' }));
    const deadline = Date.now() + 60_000;
    let ended: Msg | undefined;
    while (!ended && Date.now() < deadline) {
      ended = c.messages.find((m) => m.type === 'Turn' && m.end_of_turn === true);
      if (!ended) await new Promise((r) => setTimeout(r, 20));
    }
    expect(ended, 'an end_of_turn Turn after ForceEndpoint, with no audio after it').toBeDefined();
    expect((ended?.words as StreamWord[]).length).toBeGreaterThan(0);
    expect(ended?.turn_order).toBe(0);
    c.ws.send(JSON.stringify({ type: 'KeepAlive' }));
    c.ws.send(JSON.stringify({ type: 'UpdateConfiguration', max_turn_silence: 2000, min_turn_silence: 300, end_of_turn_confidence_threshold: 0.5 }));
    c.ws.send(JSON.stringify({ type: 'Terminate' }));
    await c.next('Termination');
    expect((await c.closed).code).toBe(1000);
  });

  it('decodes pcm_mulaw and resamples 48 kHz pcm_s16le (two sessions at once)', async () => {
    const b = firstOnly;
    const mulaw = Buffer.from(encodeMulaw(new Int16Array(b.buffer, b.byteOffset, b.length >> 1)));
    const raw48 = join(dir, 's1-48k.raw');
    execFileSync('sox', [join(dir, 's1.wav'), '-r', '48000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-t', 'raw', raw48]);
    const pcm48 = readFileSync(raw48);
    const run = async (query: string, audio: Buffer, frameBytes: number) => {
      const c = connect(query);
      await c.next('Begin');
      await replay(c.ws, audio, frameBytes, 100);
      c.ws.send(JSON.stringify({ type: 'Terminate' }));
      await c.next('Termination');
      expect((await c.closed).code).toBe(1000);
      return c.messages
        .filter((m) => m.type === 'Turn' && m.end_of_turn === true)
        .map((m) => m.transcript as string)
        .join(' ');
    };
    // 100 ms frames: 1,600 bytes of 16 kHz μ-law; 9,600 bytes of 48 kHz s16le; a second of silence ends the turn.
    const [mu, hi] = await Promise.all([
      run('?sample_rate=16000&encoding=pcm_mulaw', Buffer.concat([mulaw, Buffer.alloc(16000, 0xff)]), 1600),
      run('?sample_rate=48000&encoding=pcm_s16le', Buffer.concat([pcm48, Buffer.alloc(96000)]), 9600),
    ]);
    expect(mu).toMatch(/first sentence about the weather/);
    expect(hi).toMatch(/first sentence about the weather/);
  });
});

// Side by side (the realtime phase runs its files one at a time, so a wait on the clock is paid in full): a session on a
// second engine with no neural VAD, and an idle session on this one that the engine ends by its inactivity timeout.
describe.concurrent('streaming v3 without the neural VAD, and a session left idle', () => {
  it('ends the session after inactivity_timeout seconds without audio', async () => {
    // Taken before the socket opens, so the engine's 5 s (counted from its side of the opening) all lie after it:
    // a lower bound that a slow machine can only lengthen, never cut short.
    const opened = Date.now();
    const c = connect('?inactivity_timeout=5');
    await c.next('Begin');
    await c.next('Termination', 60_000);
    const { code } = await c.closed;
    expect(code).toBe(1000);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(4990); // 10 ms for the two clocks' rounding
  });

  it("falls back to the decoder's own speech detector and still ends turns", async () => {
    const plain = await sandbox.start(KEY, { data: 'data-novad', streaming: { useVad: false } });
    try {
      const c = connect('', { Authorization: KEY }, plain.url.replace(/^http/, 'ws'));
      await c.next('Begin');
      await replay(c.ws, Buffer.concat([Buffer.alloc(16000), firstOnly, Buffer.alloc(64000)]));
      // The engine may still be decoding what was sent: wait (to a deadline) for the turn the trailing silence ends, before Terminate.
      const endOf = () => c.messages.find((m) => m.type === 'Turn' && m.end_of_turn === true);
      const deadline = Date.now() + 60_000;
      while (!endOf() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const end = endOf();
      const got = c.messages.map((m) => `${m.type}${m.type === 'Turn' ? `(${String(m.end_of_turn)}: ${String(m.transcript)})` : ''}`).join(', ');
      expect(end, `a turn ended by silence before Terminate; got ${got}`).toBeDefined();
      expect(end?.transcript).toMatch(/weather/);
      c.ws.send(JSON.stringify({ type: 'Terminate' }));
      expect((await c.closed).code).toBe(1000);
    } finally {
      await plain.close();
    }
  });
});

describe('streaming v3 auth and errors', () => {
  const closeOf = async (query: string, headers?: Record<string, string>) => await connect(query, headers).closed;

  it('closes 1008 without a key, with a wrong key, and with an unknown token', async () => {
    for (const [q, h] of [
      ['', {}],
      ['', { Authorization: 'wrong' }],
      ['?token=nope', {}],
    ] as const) {
      const { code, reason } = await closeOf(q, h);
      expect(code).toBe(1008);
      expect(reason).toMatch(/^Unauthorized Connection: /);
    }
  });

  it('accepts a temporary token once; /v3/token validates its parameters', async () => {
    const bad = await fetch(`${engine.url}/v3/token?expires_in_seconds=601`, { headers: { Authorization: KEY } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/expires_in_seconds/);
    expect((await fetch(`${engine.url}/v3/token?expires_in_seconds=60`)).status).toBe(401);
    const r = await fetch(`${engine.url}/v3/token?expires_in_seconds=60&max_session_duration_seconds=120`, { headers: { Authorization: KEY } });
    const { token, expires_in_seconds } = (await r.json()) as { token: string; expires_in_seconds: number };
    expect(expires_in_seconds).toBe(60);
    const c = connect(`?token=${encodeURIComponent(token)}`, {});
    const begin = await c.next('Begin');
    expect(begin.expires_at as number).toBeLessThanOrEqual(Date.now() / 1000 + 121);
    c.ws.send(JSON.stringify({ type: 'Terminate' }));
    expect((await c.closed).code).toBe(1000);
    const again = await closeOf(`?token=${encodeURIComponent(token)}`, {});
    expect(again.code).toBe(1008);
    expect(again.reason).toMatch(/already used|unknown/);
  });

  it('closes 3006 with a reason for bad query parameters', async () => {
    for (const [q, re] of [
      ['?sample_rate=abc', /sample_rate/],
      ['?encoding=opus', /encoding/],
      ['?speech_model=nova-3', /speech_model/],
      ['?end_of_turn_confidence_threshold=2', /end_of_turn_confidence_threshold/],
      ['?max_turn_silence=-5', /max_turn_silence/],
      ['?inactivity_timeout=1', /inactivity_timeout/],
      ['?keyterms_prompt=notjson', /keyterms_prompt/],
      ['?format_turns=maybe', /format_turns/],
    ] as const) {
      const { code, reason } = await closeOf(q);
      expect(code, q).toBe(3006);
      expect(reason).toMatch(re);
    }
  });

  it('closes 3006 on bad JSON, an unknown message type and a bad UpdateConfiguration', async () => {
    for (const text of ['{not json', JSON.stringify({ type: 'Dance' }), JSON.stringify({ type: 'UpdateConfiguration', min_turn_silence: 'long' })]) {
      const c = connect();
      await c.next('Begin');
      c.ws.send(text);
      const { code, reason } = await c.closed;
      expect(code, text).toBe(3006);
      expect(reason.length).toBeGreaterThan(10);
    }
  });

  it('closes 3007 for frames outside 50-1000 ms and for audio much faster than real time', async () => {
    for (const bytes of [320, 32_002 + 32_000]) {
      const c = connect();
      await c.next('Begin');
      c.ws.send(Buffer.alloc(bytes));
      const { code, reason } = await c.closed;
      expect(code).toBe(3007);
      expect(reason).toMatch(/50 to 1000 ms/);
    }
    const c = connect();
    await c.next('Begin');
    // 5 s of audio at once: beyond the 3 s burst allowance of this engine.
    for (let i = 0; i < 50 && c.ws.readyState === WebSocket.OPEN; i++) c.ws.send(Buffer.alloc(3200));
    const { code, reason } = await c.closed;
    expect(code).toBe(3007);
    expect(reason).toMatch(/faster than real time/);
  });

  it('closes 3009 beyond the concurrent-session limit', async () => {
    const open = [connect(), connect(), connect()];
    await Promise.all(open.map((c) => c.next('Begin')));
    const { code, reason } = await closeOf('');
    expect(code).toBe(3009);
    expect(reason).toMatch(/allows 3/);
    for (const c of open) c.ws.send(JSON.stringify({ type: 'Terminate' }));
    await Promise.all(open.map((c) => c.closed));
  });

  it('closes 3008 when the session reaches its maximum duration', async () => {
    const short = await sandbox.start(KEY, { data: 'data-short', streaming: { maxSessionSeconds: 1 } });
    try {
      const c = connect('', { Authorization: KEY }, short.url.replace(/^http/, 'ws'));
      await c.next('Begin');
      // Seen once under heavy load: a 30 s test timeout with no trace. Name the step that hangs if it happens again.
      const { code, reason } = await Promise.race([
        c.closed,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`no close within 15 s of Begin; got ${c.messages.map((m) => m.type).join(',')}`)), 15_000),
        ),
      ]);
      expect(code).toBe(3008);
      expect(reason).toMatch(/maximum session duration/);
    } finally {
      await short.close();
    }
  });
});
