/**
 * A live session that ends itself, through CaptionExtras (the observer live captions call) with a real library:
 * after the set minutes without speech it asks "Still recording?", a turn withdraws the question, and with no
 * answer the session is stopped by main a minute after its stop moment. The clock is the test's; the check runs
 * on its own timer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CaptionExtras, type CaptionsObserver } from '../../../../src/main/services/captions/extras';
import type { StillRecording } from '../../../../src/main/services/captions/silence';
import { Library } from '../../../../src/main/services/library/library';
import type { CaptionsRun, LiveTurn } from '../../../../src/shared/captions';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Polls a condition; the test's own limit is the guard against a hang. */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

describe('a silent session', () => {
  it('asks, is kept by speech, then stops itself when nobody answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verbatim-silence-'));
    dirs.push(dir);
    const library = new Library(dir);
    let now = Date.parse('2026-01-01T10:00:00Z');
    let observer: CaptionsObserver | null = null;
    const asked: StillRecording[] = [];
    const stopped: number[] = [];
    const extras = new CaptionExtras(
      { current: () => ({ run: null, turns: [] }), setObserver: (o) => (observer = o), stop: async (r) => stopped.push(r) },
      library,
      { translator: async () => ({ unavailable: 'none' }), summariser: async () => ({ unavailable: 'none' }) },
      { translation: () => undefined, translationStatus: () => undefined, missed: () => undefined, stillRecording: (s) => asked.push(s) },
      undefined,
      { silenceMinutes: () => 2, tickMs: 5, now: () => now, summarySetting: () => 'off' },
    );
    const run: CaptionsRun = { run: 5, recordingId: 'rec', title: 'Call', startedAt: new Date(now).toISOString() };
    observer!.started(run);
    now += 2 * 60_000;
    await until(() => asked.length === 1);
    expect(asked[0]).toMatchObject({ run: 5, silentMinutes: 2, stopAt: new Date(now + 60_000).toISOString() });
    const turn = {
      run: 5,
      source: 'mic',
      key: 'k',
      text: 'Still here.',
      words: [],
      final: true,
      startMs: 1,
      endMs: 2,
      receivedAt: 0,
      capturedAt: null,
    } as LiveTurn;
    observer!.turn(turn);
    expect(asked[1]).toEqual({ run: 5, stopAt: null, silentMinutes: 0 });
    now += 2 * 60_000;
    await until(() => asked.length === 3);
    now += 2 * 60_000;
    await until(() => stopped.length === 1);
    expect(stopped).toEqual([5]);
    extras.dispose();
    library.close();
  });
});
