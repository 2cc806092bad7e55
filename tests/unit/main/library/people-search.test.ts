/**
 * Remembered names everywhere, over a real SQLite library: a search narrowed to one person finds only the
 * sentences of the speakers recognised or named as that voice, in every recording (through the app's IPC
 * contract, input validated); and every export, DOCX included, carries the person's name, not the letter.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Router } from '../../../../src/main/ipc/router';
import { registerLibraryHandlers } from '../../../../src/main/ipc/library';
import { ExportSaver } from '../../../../src/main/services/library/export-files';
import { Library } from '../../../../src/main/services/library/library';
import type { LibraryRemote } from '../../../../src/main/services/library/remote';
import type { WebhookFollower } from '../../../../src/main/services/library/webhook-status';
import type { Word } from '../../../../src/shared/library';
import { addCompleted } from '../../../support/library';

let dir: string;
let lib: Library;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-people-search-'));
  lib = new Library(join(dir, 'data'));
});
afterEach(() => {
  lib.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Words of `turns` in order, each turn one speaker's sentence. */
function talk(turns: [speaker: string, text: string][]): Word[] {
  const words: Word[] = [];
  for (const [speaker, text] of turns)
    for (const t of text.split(' ')) words.push({ text: t, start: words.length * 400, end: words.length * 400 + 300, confidence: 0.9, speaker });
  return words;
}

/** Two recordings, two voices: Dana is A on Monday and B on Tuesday, Lee the other speaker of each. */
function seed() {
  const monday = addCompleted(
    lib,
    'Monday',
    talk([
      ['A', 'The budget is tight this quarter.'],
      ['B', 'I think the budget is fine.'],
    ]),
  );
  const tuesday = addCompleted(
    lib,
    'Tuesday',
    talk([
      ['A', 'Budget review is tomorrow.'],
      ['B', 'Send me the budget numbers please.'],
    ]),
  );
  const people = lib.voices.people;
  const dana = people.remember(monday.recordingId, 'Dana', 'm', [{ vector: Float32Array.of(1, 0), ms: 2000 }], 'A');
  people.setMatch(monday.recordingId, monday.transcriptId, 'A', dana, 1);
  people.setMatch(tuesday.recordingId, tuesday.transcriptId, 'B', dana, 0.9);
  const lee = people.remember(monday.recordingId, 'Lee', 'm', [{ vector: Float32Array.of(0, 1), ms: 2000 }], 'B');
  people.setMatch(monday.recordingId, monday.transcriptId, 'B', lee, 1);
  people.setMatch(tuesday.recordingId, tuesday.transcriptId, 'A', lee, 0.88);
  // A third recording where a speaker was only renamed "Dana" by hand: the name alone is not the voice.
  const other = addCompleted(lib, 'Wednesday', talk([['A', 'The budget again.']]));
  lib.edits.renameSpeaker(other.recordingId, 'A', 'Dana');
  return { monday, tuesday, dana, lee };
}

function router(): Router {
  const r = new Router(() => true);
  registerLibraryHandlers(r, { library: lib, remote: {} as LibraryRemote, saver: new ExportSaver(lib, null), webhooks: {} as WebhookFollower }, () => null);
  return r;
}

const search = (r: Router, input: Record<string, unknown>) => r.dispatch('search.query', input, { sender: { kind: 'host', tokenValid: true } });
const texts = (reply: unknown) =>
  (reply as { output: { hits: { title: string; snippet: { text: string }[] }[] } }).output.hits
    .map((h) => `${h.title}: ${h.snippet.map((p) => p.text).join('')}`)
    .sort();

describe('library search narrowed to one person', () => {
  it('finds "budget" only in the sentences Dana says, in each recording where her voice is matched', async () => {
    const { dana, lee } = seed();
    const r = router();
    expect(texts(await search(r, { query: 'budget' }))).toHaveLength(5);
    expect(texts(await search(r, { query: 'budget', voiceId: dana }))).toEqual([
      'Monday: The budget is tight this quarter.',
      'Tuesday: Send me the budget numbers please.',
    ]);
    expect(texts(await search(r, { query: 'budget', voiceId: lee }))).toEqual(['Monday: I think the budget is fine.', 'Tuesday: Budget review is tomorrow.']);
    // The People view's search is the same narrowing.
    expect(
      lib.search
        .search('numbers', { voiceId: lee })
        .map((h) => h.title)
        .concat(lib.search.search('numbers', { voiceId: dana }).map((h) => h.title)),
    ).toEqual(['Tuesday']);
  });

  it('tells speakers apart in a long talk where most sentences match (the spans read whole) as in a short one', async () => {
    const turns: [string, string][] = [];
    for (let i = 0; i < 12; i++) turns.push([i % 3 === 0 ? 'A' : 'B', `Budget point ${i} from ${i % 3 === 0 ? 'her' : 'him'}.`]);
    const long = addCompleted(lib, 'Long review', talk(turns));
    const dana = lib.voices.people.remember(long.recordingId, 'Dana', 'm', [{ vector: Float32Array.of(1, 0), ms: 2000 }], 'A');
    lib.voices.people.setMatch(long.recordingId, long.transcriptId, 'A', dana, 1);
    const hits = lib.search.search('budget', { voiceId: dana }).map((h) => h.snippet.map((p) => p.text).join(''));
    expect(hits.sort()).toEqual(['Budget point 0 from her.', 'Budget point 3 from her.', 'Budget point 6 from her.', 'Budget point 9 from her.']);
  });

  it('finds nothing for a forgotten voice, and refuses a voice id that is not a string', async () => {
    const { dana } = seed();
    const r = router();
    lib.voices.people.forget(dana);
    expect(texts(await search(r, { query: 'budget', voiceId: dana }))).toEqual([]);
    expect(await search(r, { query: 'budget', voiceId: '' })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await search(r, { query: 'budget', voiceId: ['x'] })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });
});

/** The text of a DOCX's body (word/document.xml), tags removed; a .docx is a zip, read with the system's unzip. */
function docxText(bytes: Buffer): string {
  const f = join(dir, 'export.docx');
  writeFileSync(f, bytes);
  return execFileSync('unzip', ['-p', f, 'word/document.xml'])
    .toString('utf8')
    .replace(/<[^>]+>/g, '');
}

describe('exports use remembered names', () => {
  it('names Dana, not Speaker B, in the DOCX, SRT, VTT and TXT of a recording her voice was recognised in', async () => {
    const { tuesday } = seed();
    const docx = await lib.exports.file(tuesday.recordingId, 'docx');
    expect(docx.encoding).toBe('base64');
    const body = docxText(Buffer.from(docx.content, 'base64'));
    expect(body).toContain('Dana: Send me the budget numbers please.');
    expect(body).toContain('Lee: Budget review is tomorrow.');
    expect(body).not.toMatch(/Speaker [AB]/);
    for (const format of ['srt', 'vtt', 'txt'] as const) {
      const out = lib.exports.render(tuesday.recordingId, format, { voices: true });
      expect(out.content, format).toMatch(format === 'vtt' ? /<v Dana>/ : /Dana: /);
      expect(out.content, format).not.toMatch(/Speaker [AB]/);
    }
  });
});
