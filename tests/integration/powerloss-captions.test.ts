/**
 * Power lost during a live session: host mode (with its local engine) gets
 * speech over the bridge at real time, as the browser's frame pump sends it
 * (50 ms PCM frames, the recording in 1 s chunks), and is SIGKILLed a random
 * number of frames after its first turn was shown. Restarted on the same data
 * folder, the library has the session with every turn that was shown, and its
 * recording reaches to within 2 s of the last frame sent. Ten kills; each
 * restart is the host of the next session.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeFrame } from '../../src/shared/audio-frame';
import { hasSpeechTools } from '../fixtures/speech';
import { bridgeEvent, call, killHard, seededRandom, startHost, type RunningHost } from './support/powerloss';

const tools = hasSpeechTools();
if (!tools) console.log('powerloss-captions test skipped: flite and ffmpeg are needed to make speech');

const dir = mkdtempSync(join(tmpdir(), 'verbatim-powerloss-captions-'));
const KILLS = 10;
const BYTES_PER_SECOND = 32_000;
const FRAME = 1600; // 50 ms of PCM16 at 16 kHz

function speech(text: string): Buffer {
  execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', join(dir, 'speech.wav')]);
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-i',
    join(dir, 'speech.wav'),
    '-af',
    'apad=pad_dur=1.5',
    '-ar',
    '16000',
    '-ac',
    '1',
    '-f',
    's16le',
    join(dir, 'speech.raw'),
  ]);
  return readFileSync(join(dir, 'speech.raw'));
}

/** A WAV header for a recording whose length is not known yet (what a streaming recorder writes first). */
function wavHeader(): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(0xffffffff, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(16_000, 24);
  h.writeUInt32LE(BYTES_PER_SECOND, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(0xffffffff, 40);
  return h;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Sent {
  frames: number;
  recorded: number;
  stop: boolean;
  /** Called once `frames` frames have gone out. */
  at?: { frames: number; reached(): void };
}

/**
 * The frame pump: `pcm` on a loop, one frame per 50 ms of wall time (the
 * pacing of a microphone, not a synchronisation), and every 20 frames the
 * second just sent as a recording chunk. Stops when `sent.stop` is set or the
 * socket closes.
 */
async function pump(app: RunningHost, run: number, pcm: Buffer, sent: Sent): Promise<void> {
  const send = (kind: 'pcm' | 'recording', payload: Uint8Array) =>
    app.bridge.ws.send(new Uint8Array(encodeFrame({ kind, source: 'mic', run, capturedAt: Date.now(), payload })));
  send('recording', wavHeader());
  const t0 = performance.now();
  let second: Buffer[] = [];
  for (let n = 0; !sent.stop && app.bridge.ws.readyState === app.bridge.ws.OPEN; n++) {
    const at = (n * FRAME) % pcm.length;
    const frame = Buffer.alloc(FRAME);
    pcm.copy(frame, 0, at, Math.min(pcm.length, at + FRAME));
    send('pcm', frame);
    second.push(frame);
    sent.frames++;
    if (sent.at && sent.frames >= sent.at.frames) sent.at.reached();
    if (second.length === 20) {
      const chunk = Buffer.concat(second);
      send('recording', chunk);
      sent.recorded += chunk.length;
      second = [];
    }
    await sleep(Math.max(0, t0 + (n + 1) * 50 - performance.now()));
  }
}

/** Words of the transcript as the library gives them, in order. */
async function libraryWords(app: RunningHost, id: string): Promise<{ status: string; words: string[] }> {
  const t = await call<{ item: { status: string }; words: { text: string[] } }>(app, 'library.get', { id });
  return { status: t.item.status, words: t.words.text };
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!tools)('power lost during a live session', () => {
  it(`keeps the session, its shown turns and its recording up to 2 s before the kill, ${KILLS} kills out of ${KILLS}`, async () => {
    const rnd = seededRandom('powerloss-captions');
    const pcm = speech('Good morning everyone.');
    let app = await startHost(dir);
    try {
      for (let i = 0; i < KILLS; i++) {
        const run = await call<{ run: number; recordingId: string }>(app, 'captions.start', {
          sources: ['mic'],
          recordingMime: 'audio/wav',
          endOfTurn: 'quick',
        });
        const sent: Sent = { frames: 0, recorded: 0, stop: false };
        const pumping = pump(app, run.run, pcm, sent);
        // The condition: a turn shown as final, frames still flowing. Then a random number of further frames (0 to 2 s).
        await bridgeEvent(app, (e) => e.event === 'captions.turn' && e.payload.final === true && e.payload.run === run.run, 90_000);
        const further = rnd.int(0, 40);
        await new Promise<void>((reached) => (sent.at = { frames: sent.frames + further, reached }));
        const shown = app.bridge.events
          .filter((e) => e.event === 'captions.turn' && e.payload.final === true && e.payload.run === run.run)
          .map((e) => (e.payload.words as { text: string }[]).map((w) => w.text));
        const framesAtKill = sent.frames;
        await killHard(app.host.proc);
        sent.stop = true;
        await pumping;

        app = await startHost(dir);
        const list = await call<{ items: { id: string }[] }>(app, 'library.list');
        expect(
          list.items.map((x) => x.id),
          `kill ${i + 1}`,
        ).toContain(run.recordingId);
        const saved = await libraryWords(app, run.recordingId);
        expect(saved.status, `kill ${i + 1}: the live transcript`).toBe('completed');
        // Every turn shown before the kill is in the library, in order.
        const expected = shown.flat();
        expect(saved.words.slice(0, expected.length), `kill ${i + 1} (${further} frames after the first turn)`).toEqual(expected);
        // The recording: as long as what was sent up to 2 s before the kill, and no longer than what was sent.
        const { url } = await call<{ url: string | null }>(app, 'library.mediaUrl', { id: run.recordingId });
        expect(url).not.toBeNull();
        const res = await fetch(`http://127.0.0.1:${app.host.port}${url}`);
        const bytes = (await res.arrayBuffer()).byteLength - 44;
        const sentMs = framesAtKill * 50;
        const recordedMs = (bytes / BYTES_PER_SECOND) * 1000;
        console.log(`kill ${i + 1}: ${further} frames after the first turn, ${shown.length} turns shown; sent ${sentMs} ms, recorded ${recordedMs} ms`);
        expect(recordedMs, `kill ${i + 1}: recording`).toBeGreaterThanOrEqual(sentMs - 2000);
        expect(bytes).toBeLessThanOrEqual(sent.recorded);
      }
    } finally {
      await killHard(app.host.proc);
    }
  }, 600_000);
});
