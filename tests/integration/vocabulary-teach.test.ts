/**
 * Corrections that teach, against the real local engine: "Phebe" corrected to "Phoebe" goes into the
 * vocabulary, and the next job's create request carries it in keyterms_prompt, read back from the
 * engine's own record of the request. Fix everywhere then finds the wrong form in three other
 * transcripts, changes them, and one undo brings them all back.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import type { Word } from '../../src/shared/library';
import { unpackTranscript } from '../../src/shared/transcript-columns';
import { hasFlite } from '../fixtures/speech';
import { waitFinal } from '../support/jobs';
import { call } from '../support/router';

let root: string;
let speech: string;
let core: Core | undefined;
const flite = hasFlite();

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'verbatim-vocab-'));
  speech = join(root, 'hello.wav');
  if (flite) execFileSync('flite', ['-t', 'Hello Phoebe. The weather today is sunny.', '-o', speech]);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(async () => {
  await core?.dispose();
  core = undefined;
});

function makeCore(): Core {
  const dir = mkdtempSync(join(root, 'case-'));
  const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k') });
  const prev = process.env.ASSEMBLYAI_API_KEY;
  delete process.env.ASSEMBLYAI_API_KEY;
  const c = createCore(platform, () => true, { log: () => undefined });
  if (prev !== undefined) process.env.ASSEMBLYAI_API_KEY = prev;
  return c;
}

function words(text: string): Word[] {
  return text.split(' ').map((t, i) => ({ text: t, start: i * 400, end: i * 400 + 300, confidence: 0.9, speaker: null }));
}

/** A completed transcript in the library, as a finished job leaves it. */
function addTranscript(c: Core, title: string, text: string): string {
  const { recordingId, transcriptId } = c.library.recordings.add({
    title,
    source: `${title}.wav`,
    sourceKind: 'file',
    sizeBytes: 1000,
    region: 'local',
    baseUrl: null,
    options: {},
  });
  const w = words(text);
  c.library.transcripts.complete(transcriptId, {
    remoteId: null,
    text,
    words: w,
    sentences: null,
    paragraphs: null,
    confidence: 0.9,
    language: 'en_us',
    model: 'pocketsphinx',
    durationMs: w.length * 400,
  });
  return recordingId;
}

const textOf = async (c: Core, id: string) =>
  unpackTranscript(await call(c.router, 'library.get', { id }))
    .words.map((w) => w.text)
    .join(' ');

describe('corrections that teach', () => {
  it.skipIf(!flite)(
    'a correction learned into the vocabulary reaches the next job’s request as keyterms_prompt',
    async () => {
      core = makeCore();
      const first = addTranscript(core, 'Interview', 'We met Phebe at the station.');
      const t = unpackTranscript(await call(core.router, 'library.get', { id: first }));
      const index = t.words.findIndex((w) => w.text === 'Phebe');
      await call(core.router, 'library.correctWords', { id: first, edits: [{ index, text: 'Phoebe' }] });
      // The offer the transcript makes after a spelling correction, accepted:
      const added = await call(core.router, 'vocabulary.add', { term: 'Phoebe' });
      expect(added.vocabulary).toEqual(['Phoebe']);
      expect((await call(core.router, 'settings.get', undefined)).vocabulary).toEqual(['Phoebe']);

      const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: speech }] });
      const done = await waitFinal(core.jobs, jobs[0]!.id, 120_000);
      expect(done.status, JSON.stringify(done.error)).toBe('completed');
      // The engine's record of the create request: what it was asked, as GET /v2/transcript/{id} answers it.
      const engine = await core.engine.ensure();
      const res = await fetch(`${engine.url}/v2/transcript/${done.remoteId}`, { headers: { authorization: engine.key } });
      const remote = (await res.json()) as { keyterms_prompt?: string[] };
      expect(remote.keyterms_prompt).toEqual(['Phoebe']);
    },
    180_000,
  );

  it('fixes a wrong form in every other transcript, and one undo brings all of them back', async () => {
    core = makeCore();
    const corrected = addTranscript(core, 'Corrected', 'Phoebe called.');
    const others = [
      addTranscript(core, 'Call one', 'Then Phebe said hello.'),
      addTranscript(core, 'Call two', 'phebe, are you there? Yes, Phebe.'),
      addTranscript(core, 'Call three', 'I asked (Phebe) twice.'),
    ];
    const untouched = addTranscript(core, 'Other', 'Phebes and Phebeland are other words.');
    const before = await Promise.all(others.map((id) => textOf(core!, id)));

    const found = await call(core.router, 'vocabulary.fixFind', { from: 'Phebe' });
    expect(found.total).toBe(3);
    expect(found.matches.map((m) => m.recordingId).sort()).toEqual([...others].sort());
    expect(found.matches.find((m) => m.recordingId === others[1])?.count).toBe(2);
    expect(found.matches[0]!.snippet.some((p) => p.match && /phebe/i.test(p.text))).toBe(true);

    const applied = await call(core.router, 'vocabulary.fixApply', { from: 'Phebe', to: 'Phoebe', recordingIds: found.matches.map((m) => m.recordingId) });
    expect(applied).toMatchObject({ recordings: 3, words: 4 });
    expect(await textOf(core, others[0]!)).toBe('Then Phoebe said hello.');
    expect(await textOf(core, others[1]!)).toBe('Phoebe, are you there? Yes, Phoebe.');
    expect(await textOf(core, others[2]!)).toBe('I asked (Phoebe) twice.');
    expect(await textOf(core, untouched)).toBe('Phebes and Phebeland are other words.');
    expect(await textOf(core, corrected)).toBe('Phoebe called.');
    // The search index follows the fix.
    expect((await call(core.router, 'vocabulary.fixFind', { from: 'Phebe' })).total).toBe(0);

    const undone = await call(core.router, 'vocabulary.fixUndo', { batchId: applied.batchId });
    expect(undone).toEqual({ recordings: 3, words: 4 });
    expect(await Promise.all(others.map((id) => textOf(core!, id)))).toEqual(before);
    // Back as they were: no word is marked corrected any more.
    for (const id of others) expect(unpackTranscript(await call(core.router, 'library.get', { id })).words.every((w) => !w.original)).toBe(true);
    expect((await call(core.router, 'vocabulary.fixFind', { from: 'Phebe' })).total).toBe(3);
    await expect(call(core.router, 'vocabulary.fixUndo', { batchId: applied.batchId })).rejects.toMatchObject({ code: 'not_found' });
  });
});
