/**
 * Summary templates through main's router, the real library and the local
 * engine with a tiny GGUF model written by the test: create one, use it for a
 * transcript's summary (the answer comes under the template's own sections,
 * its citations checked) and for a chat action, export it as Markdown and
 * import that file back (a taken name gets " (2)"); built-ins cannot be
 * changed; a file with no sections says what it lacks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { templateQuestion } from '../../src/shared/chat/actions';
import type { ChatMessage } from '../../src/shared/chat/schema';
import type { Word } from '../../src/shared/library';
import { installTinyGguf } from '../fixtures/models/gguf';
import { addCompleted } from '../support/library';
import { call } from '../support/router';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-app-templates-'));
let core: Core;
let rec: string;
const events: { event: string; payload: unknown }[] = [];
/** The model's fixed answer cites a line it was given (00:05) and one never said (09:09). */
const WORDS = ['Ship', 'Friday', '[Planning @ 00:05]', 'budget', 'later', '[Planning @ 09:09]', '.'];

function wordsOf(sentences: [number, string][]): Word[] {
  return sentences.flatMap(([start, text]) =>
    text.split(' ').map((w, i) => ({ text: w, start: start + i * 300, end: start + i * 300 + 250, confidence: 0.9, speaker: null })),
  );
}

beforeAll(async () => {
  const dataDir = join(dir, 'data');
  installTinyGguf(join(dataDir, 'models'), 'tiny-template', { words: WORDS });
  delete process.env.ASSEMBLYAI_API_KEY;
  core = createCore(createHostPlatform({ dataDir, version: 't', keyFile: join(dir, 'k') }), () => true, { log: () => undefined });
  core.router.subscribe((event, payload) => events.push({ event, payload }));
  rec = addCompleted(
    core.library,
    'Planning',
    wordsOf([
      [0, 'Good morning everyone.'],
      [5000, 'We ship the release on Friday.'],
      [11_000, 'The budget review comes later.'],
    ]),
  ).recordingId;
}, 60_000);

afterAll(async () => {
  await core?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('summary templates', () => {
  let made: { id: string; name: string };

  it('lists the built-in templates and refuses to change one', async () => {
    const { templates } = await call(core.router, 'templates.list', undefined);
    expect(templates.filter((t) => t.builtIn).map((t) => t.name)).toEqual(['1:1', 'Lecture notes', 'Stand-up', 'Customer interview']);
    await expect(
      call(core.router, 'templates.save', { id: 'builtin:stand-up', name: 'Mine', sections: [{ title: 'A', instructions: '' }] }),
    ).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('creates a template and keeps it in the library', async () => {
    made = await call(core.router, 'templates.save', {
      name: 'Release check',
      sections: [
        { title: 'Dates', instructions: 'Release dates that were set.' },
        { title: 'Money', instructions: 'Budget matters.' },
      ],
    });
    expect(made).toMatchObject({ name: 'Release check', builtIn: false });
    const { templates } = await call(core.router, 'templates.list', undefined);
    expect(templates.map((t) => t.name)).toContain('Release check');
    await expect(call(core.router, 'templates.save', { name: 'release CHECK', sections: [{ title: 'A', instructions: '' }] })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('already exists'),
    });
  });

  it('writes a transcript summary to the template’s sections, keeping only citations of lines it read', async () => {
    const insight = await call(core.router, 'insights.run', { id: rec, kind: 'summary', model: 'tiny-template', templateId: made.id });
    if (insight.result.kind !== 'summary') throw new Error('not a summary');
    expect(insight.result.template).toBe('Release check');
    expect(insight.result.sections?.map((s) => s.title)).toEqual(['Dates', 'Money']);
    const text = insight.result.bullets.join(' ');
    expect(text).toContain('[Planning @ 00:05]');
    expect(text).not.toContain('09:09');
  }, 120_000);

  it('offers the template as a chat action', async () => {
    const chat = await call(core.router, 'chat.create', { scope: 'recordings', recordingIds: [rec], model: 'tiny-template' });
    const { answer } = await call(core.router, 'chat.send', { id: chat.id, text: templateQuestion('Release check') });
    const end = Date.now() + 90_000;
    let done: ChatMessage | undefined;
    while (!done && Date.now() < end) {
      done = events
        .filter((e) => e.event === 'chat.message')
        .map((e) => (e.payload as { message: ChatMessage }).message)
        .find((m) => m.id === answer.id);
      if (!done) await new Promise((r) => setTimeout(r, 20));
    }
    expect(done?.status, done?.error ?? '').toBe('done');
    expect(done?.citations).toEqual([expect.objectContaining({ recordingId: rec, atMs: 5000 })]);
  }, 120_000);

  it('exports a template as Markdown and imports it back under a free name', async () => {
    const out = await call(core.router, 'templates.export', { id: made.id });
    expect(out.filename).toBe('Release check.md');
    expect(out.content).toBe('# Release check\n\n## Dates\n\nRelease dates that were set.\n\n## Money\n\nBudget matters.\n');
    const back = await call(core.router, 'templates.import', { content: out.content });
    expect(back).toMatchObject({ name: 'Release check (2)', sections: [{ title: 'Dates' }, { title: 'Money' }] });
    await expect(call(core.router, 'templates.import', { content: '# Only a name\n\nNo sections here.' })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('no sections'),
    });
    await call(core.router, 'templates.delete', { id: back.id });
    const { templates } = await call(core.router, 'templates.list', undefined);
    expect(templates.map((t) => t.name)).not.toContain('Release check (2)');
  });
});
