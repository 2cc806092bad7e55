// Markdown export through the one export pipeline: YAML front matter read back with the yaml parser
// (names with colons, quotes and line breaks survive), the saved summary and action items, and
// speaker-labelled paragraphs whose times link back to the recording.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Library } from '../../../../src/main/services/library/library';
import type { Word } from '../../../../src/shared/library';
import { addCompleted } from '../../../support/library';

let dir: string;
let lib: Library;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-md-'));
  lib = new Library(join(dir, 'data'));
});
afterEach(() => {
  lib.close();
  rmSync(dir, { recursive: true, force: true });
});

function words(): Word[] {
  const out: Word[] = [];
  let t = 0;
  for (const [speaker, text] of [
    ['A', 'Welcome to the *review* of #budget numbers.'],
    ['B', 'Thanks. Spending came in under the forecast.'],
    ['A', 'Good, then we ship on Monday.'],
  ] as const) {
    for (const w of text.split(' ')) {
      out.push({ text: w, start: t, end: t + 300, confidence: 0.9, speaker });
      t += 350;
    }
    t += 65_000;
  }
  return out;
}

function frontMatter(md: string): Record<string, unknown> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(md);
  expect(m, 'the file starts with front matter').not.toBeNull();
  return parse(m![1]!) as Record<string, unknown>;
}

describe('Markdown export', () => {
  it('writes front matter a YAML parser reads back exactly, even with colons, quotes and line breaks in names', () => {
    const hostile = 'Standup: "Q3" — it\'s #1\nsecond line';
    const { recordingId, transcriptId } = addCompleted(lib, 'plain', words(), { language: 'en_us', model: 'whisper-tiny', durationMs: 200_000 });
    lib.recordings.rename(recordingId, hostile);
    lib.recordings.setTags(recordingId, ['team: core', 'q3']);
    lib.edits.renameSpeaker(recordingId, 'A', 'Dr. O\'Neil: "Chair"\nof the board');
    lib.edits.renameSpeaker(recordingId, 'B', '- [ ] not a task');
    lib.insights.save(transcriptId, '', 'test', { kind: 'summary', bullets: ['Spending was under forecast.'] });
    lib.insights.save(transcriptId, '', 'test', { kind: 'action_items', items: [{ owner: 'B', task: 'Send the numbers', due: 'Friday' }] });

    const file = lib.exports.render(recordingId, 'md');
    expect(file.filename.endsWith('.md')).toBe(true);
    expect(file.mime).toContain('text/markdown');
    const fm = frontMatter(file.content);
    expect(fm).toEqual({
      title: hostile,
      date: lib.recordings.item(recordingId).createdAt,
      duration: '03:20',
      source: 'plain.wav',
      language: 'en_us',
      model: 'whisper-tiny',
      speakers: ['Dr. O\'Neil: "Chair"\nof the board', '- [ ] not a task'],
      tags: ['q3', 'team: core'].sort(),
      link: `verbatim://recording/${recordingId}`,
    });

    const body = file.content.slice(file.content.indexOf('\n---\n') + 5);
    expect(body).toContain('## Summary\n\n- Spending was under forecast.');
    expect(body).toContain('## Action items\n\n- [ ] Send the numbers (owner: B, due: Friday)');
    // Each paragraph: a time linking to its moment, the speaker's name on one line, markup in the words escaped.
    expect(body).toContain(
      `[00:00](verbatim://recording/${recordingId}?t=0) **Dr. O'Neil: "Chair" of the board:** Welcome to the \\*review\\* of #budget numbers.`,
    );
    expect(body).toMatch(new RegExp(`\\[01:0\\d\\]\\(verbatim://recording/${recordingId}\\?t=6\\d\\) \\*\\*\\\\- \\\\\\[ \\\\\\] not a task:\\*\\* Thanks\\.`));
    expect(body).not.toContain('\n- [ ] not a task');
  });

  it('leaves out the summary and action items when there are none, and lists unnamed speakers by label', () => {
    const { recordingId } = addCompleted(lib, 'Weekly sync', words());
    const md = lib.exports.render(recordingId, 'md').content;
    expect(frontMatter(md).speakers).toEqual(['Speaker A', 'Speaker B']);
    expect(md).not.toContain('## Summary');
    expect(md).not.toContain('## Action items');
    expect(md).toContain('**Speaker B:** Thanks.');
  });
});
