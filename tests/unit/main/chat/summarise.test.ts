/**
 * The one summariser's plan with a scripted model: parts fit the budget and
 * hold every line (a line longer than a part is split, not cut); each part's
 * notes keep only citations of that part's lines; the final ask may cite only
 * what the notes cite; notes too long for one ask are merged level by level;
 * Stop ends it between parts; a budget under one part is refused with advice.
 */
import { describe, expect, it } from 'vitest';
import { planSummary, tooSmallFor, type SummaryInput } from '../../../../src/main/services/chat/summarise';
import type { ChatMessage } from '../../../../src/shared/api/gateway';

const input = (n: number, text = (i: number) => `Line number ${i} says something worth noting.`): SummaryInput => ({
  sources: [{ recordingId: 'r', label: 'Talk' }],
  lines: Array.from({ length: n }, (_, i) => ({ recordingId: 'r', startMs: i * 60_000, text: text(i) })),
});

/** Notes that cite the first line of the part they were given, and one moment of another part (which must be dropped). */
function scripted(calls: ChatMessage[][]) {
  return async (messages: ChatMessage[]) => {
    calls.push(messages);
    const system = String(messages[0]?.content ?? '');
    const first = /\[Talk @ (\d\d:\d\d)\]/.exec(system.slice(system.lastIndexOf(':\n')))?.[1] ?? '00:00';
    return `- A point [Talk @ ${first}] and an aside [Talk @ 59:00]`;
  };
}

describe('planSummary', () => {
  it('keeps each part’s own citations, and the final ask may cite only those', async () => {
    const calls: ChatMessage[][] = [];
    const progress: [number, number][] = [];
    const plan = await planSummary(input(60), 'Summarise.', 1500, {
      complete: scripted(calls),
      progress: (d, t) => progress.push([d, t]),
      signal: new AbortController().signal,
    });
    expect(plan.parts).toBeGreaterThan(1);
    expect(calls).toHaveLength(plan.parts);
    // Every line went into some part, each part within the budget.
    const sent = calls.map((c) =>
      String(c[0]?.content)
        .split('\n')
        .filter((l) => l.startsWith('[Talk @')),
    );
    expect(sent.flat()).toHaveLength(60);
    for (const part of sent) expect(part.join('\n').length).toBeLessThanOrEqual(1500);
    // 59:00 is the last line: only the last part's notes may keep it.
    const firsts = sent.map((p) => /@ (\d\d:\d\d)/.exec(p[0] ?? '')?.[1]);
    const notes = String(plan.messages[0]?.content);
    expect(notes.match(/\[Talk @ 59:00\]/g)).toHaveLength(1);
    expect(plan.given.map((g) => g.startMs).sort((a, b) => a - b)).toEqual(
      [...new Set([...firsts.map((f) => Number(f!.slice(0, 2)) * 60_000), 59 * 60_000])].sort((a, b) => a - b),
    );
    expect(progress[0]).toEqual([0, plan.parts]);
    expect(progress.at(-1)).toEqual([plan.parts, plan.parts]);
  });

  it('splits a line longer than a part instead of cutting it', async () => {
    const long = 'word '.repeat(800).trim();
    const calls: ChatMessage[][] = [];
    await planSummary(
      input(1, () => long),
      'Summarise.',
      1300,
      { complete: scripted(calls), progress: () => undefined, signal: new AbortController().signal },
    );
    const words = calls
      .map((c) =>
        String(c[0]?.content)
          .split('\n')
          .filter((l) => l.startsWith('[Talk @')),
      )
      .flat()
      .join(' ')
      .match(/word/g);
    expect(words).toHaveLength(800);
  });

  it('merges notes that do not fit at once, level by level', async () => {
    const calls: ChatMessage[][] = [];
    const plan = await planSummary(input(400), 'Summarise.', 1300, {
      complete: async (m) => {
        calls.push(m);
        return `- ${'A long note that repeats itself. '.repeat(6)}[Talk @ 00:00]`;
      },
      progress: () => undefined,
      signal: new AbortController().signal,
    });
    expect(calls.length).toBeGreaterThan(plan.parts);
    expect(String(plan.messages[0]?.content).length).toBeLessThan(4000);
  });

  it('stops between parts', async () => {
    const abort = new AbortController();
    await expect(
      planSummary(input(60), 'Summarise.', 1500, {
        complete: async () => {
          abort.abort();
          return '- noted';
        },
        progress: () => undefined,
        signal: abort.signal,
      }),
    ).rejects.toMatchObject({ code: 'canceled' });
  });

  it('says what to choose when a model cannot hold one part', () => {
    expect(tooSmallFor({ name: 'Tiny', contextLength: 1024 }, 1500)).toMatch(/Tiny reads only 1024 tokens.*Settings → Models/);
    expect(tooSmallFor({ name: 'Big', contextLength: 32_000 }, 1500)).toBeNull();
  });
});
