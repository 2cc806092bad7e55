/**
 * The session's summary at Stop, with tiny GGUF models written by the test
 * through the real local engine and a real library: 25 minutes of final
 * turns arrive as captions would; the two closed 10-minute windows are read
 * in the background before Stop, so at Stop only the last window and the
 * merge remain; the summary's bullet that states a number never said (the
 * model's fixed answer: "Budget is 4500 dollars [00:04]") is marked "not
 * found in the cited moments", and one its cited line supports is not. Through
 * CaptionExtras (the observer live captions call), the summary is kept with
 * the session, written to the chosen template.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { CaptionExtras, type CaptionsObserver } from '../../src/main/services/captions/extras';
import { LiveSummary } from '../../src/main/services/captions/live-summary';
import type { MissedModel } from '../../src/main/services/captions/missed';
import { NOT_FOUND } from '../../src/main/services/captions/support-check';
import type { CaptionsRun, LiveTurn } from '../../src/shared/captions';
import type { MissedSummary } from '../../src/shared/captions-extras';
import { installTinyGguf } from '../fixtures/models/gguf';
import { addCompleted } from '../support/library';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-live-summary-'));
let core: Core;
let recordingId: string;
const FABRICATING = ['-', 'Budget', 'is', '4500', 'dollars', '[00:04]', '.'];
const FAITHFUL = ['-', 'The', 'budget', 'is', 'small', '[00:04]', '.'];
const MINUTES = 25;

/** A final turn every 4 s for 25 minutes; the one at 00:04 says the budget is small. */
function turns(): LiveTurn[] {
  return Array.from({ length: (MINUTES * 60) / 4 }, (_, i) => ({
    run: 1,
    source: 'mic' as const,
    key: `t${i}`,
    text: i === 1 ? 'The budget is small this year.' : `Point ${i} of the planning call was talked through.`,
    words: [],
    final: true,
    startMs: i * 4000,
    endMs: i * 4000 + 3000,
    receivedAt: 0,
    capturedAt: null,
  }));
}

async function modelOf(id: string, calls: { n: number }): Promise<MissedModel> {
  const gateway = await core.clients.gateway();
  return {
    model: id,
    generative: true,
    contextLength: 4096,
    stream: (m, d, s) => {
      calls.n++;
      return gateway.chatStream({ model: id, messages: m, max_tokens: 120 }, d, s);
    },
  };
}

beforeAll(async () => {
  const dataDir = join(dir, 'data');
  const vocabulary = ['Point', 'of', 'the', 'planning', 'call', 'was', 'talked', 'through.', ...Array.from({ length: 400 }, (_, i) => String(i))];
  installTinyGguf(join(dataDir, 'models'), 'tiny-fabricating', { words: FABRICATING, vocabulary });
  installTinyGguf(join(dataDir, 'models'), 'tiny-faithful', { words: FAITHFUL, vocabulary });
  delete process.env.ASSEMBLYAI_API_KEY;
  core = createCore(createHostPlatform({ dataDir, version: 't', keyFile: join(dir, 'k') }), () => true, { log: () => undefined });
  recordingId = addCompleted(core.library, 'Planning call', [{ text: 'x', start: 0, end: 100, confidence: 1, speaker: null }]).recordingId;
  // The engine lists the installed models once it is up.
  const listed = async () => (await (await core.clients.gateway()).models()).some((m) => m.id === 'tiny-faithful');
  // A condition, polled; the hook's own limit is the guard against a hang.
  while (!(await listed())) await new Promise((r) => setTimeout(r, 200));
}, 120_000);

afterAll(async () => {
  await core?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const run: CaptionsRun = { run: 1, recordingId: 'rec', title: 'Planning call', startedAt: new Date().toISOString() };

describe('the summary at Stop', () => {
  it('reads closed windows in the background, leaves only the last and the merge for Stop, and marks a number never said', async () => {
    const calls = { n: 0 };
    const model = await modelOf('tiny-fabricating', calls);
    const updates: MissedSummary[] = [];
    const live = new LiveSummary({ model: async () => model, template: () => null, update: (s) => updates.push(s) });
    live.started({ ...run, recordingId });
    for (const t of turns()) live.turn(t);
    await live.idle();
    expect(live.windowsDone).toBe(2);
    const before = calls.n;
    const summary = await live.ended(MINUTES * 60_000);
    // At Stop: the last 5 minutes (one part) and the merge.
    expect(calls.n - before).toBe(2);
    expect(summary).toMatchObject({ status: 'done', kind: 'meeting', fromMs: 0, toMs: MINUTES * 60_000, unsupported: 1 });
    expect(summary!.content).toBe(`- Budget is 4500 dollars [00:04]. (${NOT_FOUND})`);
    expect(summary!.citations).toEqual([{ startMs: 4000, label: '00:04' }]);
    expect(updates.at(-1)).toEqual(summary);
  }, 240_000);

  it('reads again at Stop a window whose notes failed in the background, so none is left out', async () => {
    const calls = { n: 0 };
    const model = await modelOf('tiny-fabricating', calls);
    // The first call (the first window's notes) fails as a dropped connection would.
    const flaky: MissedModel = {
      ...model,
      stream: (m, d, sig) => (calls.n === 0 ? (calls.n++, Promise.reject(new Error('socket hang up'))) : model.stream(m, d, sig)),
    };
    const live = new LiveSummary({ model: async () => flaky, template: () => null, update: () => undefined });
    live.started({ ...run, recordingId });
    for (const t of turns()) live.turn(t);
    await live.idle();
    expect(live.windowsDone).toBe(1);
    const before = calls.n;
    const summary = await live.ended(MINUTES * 60_000);
    // The first window again (its two parts), the last window, and the merge.
    expect(calls.n - before).toBe(4);
    // 00:04 is in the first window: its citation stands only because that window's notes were taken after all.
    expect(summary).toMatchObject({ status: 'done', citations: [{ startMs: 4000, label: '00:04' }] });
  }, 240_000);

  it('leaves a bullet its cited line supports unmarked', async () => {
    const model = await modelOf('tiny-faithful', { n: 0 });
    const live = new LiveSummary({ model: async () => model, template: () => null, update: () => undefined });
    live.started({ ...run, recordingId });
    for (const t of turns().slice(0, 100)) live.turn(t);
    const summary = await live.ended(400_000);
    expect(summary).toMatchObject({ status: 'done', unsupported: 0, content: '- The budget is small [00:04].' });
  }, 240_000);

  it('keeps the summary with the session, written to the chosen template, when live captions stop', async () => {
    const template = core.library.templates.save({ name: 'Planning', sections: [{ title: 'Money', instructions: 'Budget talk.' }] });
    core.settings.set({ liveSummary: template.id });
    const model = await modelOf('tiny-faithful', { n: 0 });
    let observer: CaptionsObserver | null = null;
    const events: MissedSummary[] = [];
    const extras = new CaptionExtras(
      { current: () => ({ run: null, turns: [] }), setObserver: (o) => (observer = o) },
      core.library,
      { translator: async () => ({ unavailable: 'none' }), summariser: async () => model },
      { translation: () => undefined, translationStatus: () => undefined, missed: (s) => events.push(s) },
      undefined,
      { summarySetting: () => core.settings.get().liveSummary },
    );
    const started = { ...run, recordingId, startedAt: new Date(Date.now() - 400_000).toISOString() };
    observer!.started(started);
    for (const t of turns().slice(0, 100)) observer!.turn(t);
    observer!.ended(started);
    const summary = await extras.lastSummary;
    expect(summary).toMatchObject({ status: 'done', kind: 'meeting', template: 'Planning' });
    expect(core.library.liveExtras.summaries(recordingId)).toEqual([expect.objectContaining({ id: summary!.id, kind: 'meeting', content: summary!.content })]);
    expect(events.at(-1)?.id).toBe(summary!.id);
    extras.dispose();
  }, 240_000);
});
