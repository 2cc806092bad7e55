/**
 * The summary at Stop through real streaming: flite speech goes into the
 * app's captions service as the renderer's 50 ms frames, at real time (the
 * engine's /v3/ws refuses audio more than 10 s ahead of real time, close
 * 3007 in src/engine/streaming/input.ts, so 25 minutes cannot be played fast), the
 * local engine captions it, and the session's CaptionExtras (the observer
 * live captions call) summarises each closed window in the background with a
 * tiny GGUF chat model through the engine. Windows are 6 s here instead of
 * 10 minutes (CaptionExtras' windowMs), so half a minute of speech closes two
 * of them before Stop (a window closes once a turn starts 15 s past its end),
 * as 25 minutes would. After Stop the summary is saved with
 * the session, and every bullet cites its moments. The time from Stop to the
 * summary is printed, not asserted (npm run bench -- summarise measures it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { CaptionExtras } from '../../src/main/services/captions/extras';
import type { MissedModel } from '../../src/main/services/captions/missed';
import type { MissedSummary } from '../../src/shared/captions-extras';
import { installTinyGguf } from '../fixtures/models/gguf';
import { hasSpeechTools } from '../fixtures/speech';
import { feedCaptions } from '../support/live-audio';

const tools = hasSpeechTools();
if (!tools) console.log('app-live-summary-stop test skipped: flite and ffmpeg are needed to make speech');

const dir = mkdtempSync(join(tmpdir(), 'verbatim-live-summary-stop-'));
const WINDOW_MS = 6_000;
/** The model's answer to every call (notes and merge): one bullet citing the budget line, spoken at 00:04. */
const ANSWER = ['-', 'The', 'budget', 'is', 'small', '[00:04]', '.'];
/**
 * What is said and when (seconds into the session), with 6 s windows and 15 s of grace: the first window [0, 6 s) holds
 * the greeting and the budget line; the turn at 24 s closes it (past 21 s), the one at 30 s closes the second
 * (past 27 s: the same 3 s of slack the 20 s windows had); [12 s, end) is the last window, left for Stop.
 */
const SCRIPT: { at: number; text: string }[] = [
  { at: 0.3, text: 'Good morning everyone.' },
  { at: 4.2, text: 'The budget is small this year.' },
  ...[8, 13, 18.5, 24, 30].map((at, i) => ({
    at,
    text: ['We talked about the planning call.', 'The report goes out on Friday.', 'Dana will send the notes tomorrow.'][i % 3] as string,
  })),
];
const SECONDS = 34;
let core: Core;

/** The script as 16 kHz mono PCM16: each line read by flite, placed at its moment, silence between. */
function speech(): Buffer {
  const pcm = Buffer.alloc(SECONDS * 16000 * 2);
  SCRIPT.forEach(({ at, text }, i) => {
    execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', join(dir, `${i}.wav`)]);
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, `${i}.wav`), '-ar', '16000', '-ac', '1', '-f', 's16le', join(dir, `${i}.raw`)]);
    readFileSync(join(dir, `${i}.raw`)).copy(pcm, Math.round(at * 16000) * 2);
  });
  return pcm;
}

beforeAll(async () => {
  if (!tools) return;
  const dataDir = join(dir, 'data');
  const vocabulary = [...new Set(SCRIPT.flatMap((l) => l.text.split(/\s+/)).concat(ANSWER))];
  installTinyGguf(join(dataDir, 'models'), 'tiny-summary', { words: ANSWER, vocabulary });
  delete process.env.ASSEMBLYAI_API_KEY;
  core = createCore(createHostPlatform({ dataDir, version: 't', keyFile: join(dir, 'k') }), () => true, { log: () => undefined, resume: false });
  await core.engine.ensure();
  // The engine lists the installed model once it is up.
  const listed = async () => (await (await core.clients.gateway()).models()).some((m) => m.id === 'tiny-summary');
  // A condition, polled; the hook's own limit is the guard against a hang.
  while (!(await listed())) await new Promise((r) => setTimeout(r, 200));
}, 180_000);

afterAll(async () => {
  await core?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!tools)('the summary at Stop, through live captions from the local engine', () => {
  it('closes two windows in the background from streamed speech, and after Stop saves the summary with every bullet cited', async () => {
    const gateway = await core.clients.gateway();
    const calls = { n: 0 };
    const model: MissedModel = {
      model: 'tiny-summary',
      generative: true,
      contextLength: 4096,
      stream: (m, d, s) => {
        calls.n++;
        return gateway.chatStream({ model: 'tiny-summary', messages: m, max_tokens: 120 }, d, s);
      },
    };
    const events: MissedSummary[] = [];
    // The observer of the app's captions service from now on (the core's own one stands aside), with 20 s windows.
    const extras = new CaptionExtras(
      core.captions,
      core.library,
      { translator: async () => ({ unavailable: 'none' }), summariser: async () => model },
      { translation: () => undefined, translationStatus: () => undefined, missed: (s) => events.push(s) },
      undefined,
      { windowMs: WINDOW_MS },
    );
    try {
      const pcm = speech();
      const run = await core.captions.start({ sources: ['mic'], recordingMime: 'audio/webm;codecs=opus' });
      await feedCaptions(core.captions, run.run, 'mic', pcm);
      // The last line's turn (at 30 s) closes the second window; the engine may lag behind real time on a busy machine.
      await expect.poll(() => extras.summary.windowsDone, { timeout: 120_000 }).toBeGreaterThanOrEqual(2);
      const windows = extras.summary.windowsDone;
      const before = calls.n;

      const t0 = performance.now();
      const stopped = await core.captions.stop(run.run);
      const stopMs = performance.now() - t0;
      const summary = await extras.lastSummary;
      const totalMs = performance.now() - t0;
      console.log(
        `app-live-summary-stop: ${SECONDS} s of speech at real time, ${windows} windows of ${WINDOW_MS / 1000} s summarised before Stop; ` +
          `Stop answered in ${Math.round(stopMs)} ms, the summary was saved ${Math.round(totalMs)} ms after Stop (${calls.n - before} model calls after Stop; ` +
          `${summary?.unsupported ?? '?'} bullet(s) marked not found)`,
      );

      expect(stopped.recordingId).toBe(run.recordingId);
      expect(summary, JSON.stringify(events.at(-1))).toMatchObject({ status: 'done', kind: 'meeting', recordingId: run.recordingId, fromMs: 0 });
      // At Stop only the last window's notes and the merge were left.
      expect(calls.n - before).toBeLessThanOrEqual(3);
      const bullets = summary!.content.split('\n').filter((l) => /^\s*[-*]\s/.test(l));
      expect(bullets.length).toBeGreaterThan(0);
      for (const b of bullets) expect(b, 'every bullet cites its moments').toMatch(/\[\d{2}:\d{2}(:\d{2})?\]/);
      expect(summary!.citations.length).toBeGreaterThan(0);
      // The cited moment is the budget line's (00:04), said in the first window.
      expect(summary!.citations).toContainEqual(expect.objectContaining({ label: '00:04' }));
      // Kept with the session in the library.
      expect(core.library.liveExtras.summaries(run.recordingId)).toContainEqual(
        expect.objectContaining({ id: summary!.id, kind: 'meeting', content: summary!.content }),
      );
    } finally {
      extras.dispose();
    }
  }, 420_000);
});
