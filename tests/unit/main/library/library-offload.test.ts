/**
 * The library's worker for host mode's big bridge messages (issue 26): a
 * message read and checked there answers as the in-process reading does, a
 * commit's big splice stays there until its commit, and subtitles.open comes
 * back as the same document written as JSON.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Library } from '../../../../src/main/services/library/library';
import { importSubtitlesAsItem } from '../../../../src/main/services/library/subtitle-import';
import { decodeBridgeRequest } from '../../../../src/shared/bridge-request';
import type { Splice } from '../../../../src/shared/subtitles/index';

let dir: string;
let lib: Library;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-offload-'));
  lib = new Library(join(dir, 'data'));
});
afterEach(async () => {
  await lib.offload.close();
  lib.close();
  rmSync(dir, { recursive: true, force: true });
});

const bytes = (msg: unknown) => new TextEncoder().encode(typeof msg === 'string' ? msg : JSON.stringify(msg));
const cues = (n: number, text = 'b') => Array.from({ length: n }, (_, i) => ({ start: i * 1000, end: i * 1000 + 500, text: `${text} ${i}` }));

/** A one-cue item and the request that replaces its cue with `n` cues. */
function replaceAll(n: number, text = 'b'): { id: string; msg: { id: number; channel: string; input: Record<string, unknown> } } {
  const id = importSubtitlesAsItem(lib, 'one.srt', '1\n00:00:01,000 --> 00:00:02,000\nfirst\n').id;
  const doc = lib.subtitles.open(id);
  const splice = { at: 0, remove: doc.cues, insert: cues(n, text) };
  return { id, msg: { id: 7, channel: 'subtitles.commit', input: { id, version: doc.version, label: 'Replace all', splice } } };
}

describe('the library worker reads big bridge messages', () => {
  it('answers every shape as the in-process reading does', async () => {
    const big = 'x'.repeat(300_000);
    const shapes: unknown[] = [
      `not json ${big}`,
      { channel: 'app.info', pad: big },
      { id: 1, channel: 'no.such', input: big },
      { id: 2, channel: 'subtitles.commit', input: { id: 'x', version: -1, label: 'l', splice: { at: 0, remove: [], insert: cues(9_000) } } },
      { id: 3, channel: 'subtitles.importNew', input: { name: 'a.srt', content: big } },
      { id: 4, channel: 'subtitles.commit', input: { id: 'x', version: 0, label: 'l', splice: { at: 0, remove: [], insert: cues(10) } }, pad: big },
    ];
    for (const shape of shapes) {
      const text = typeof shape === 'string' ? shape : JSON.stringify(shape);
      expect(await lib.offload.decodeRequest(bytes(text)), text.slice(0, 60)).toEqual(decodeBridgeRequest(text));
    }
    expect(decodeBridgeRequest(JSON.stringify(shapes[3]))).toMatchObject({ ok: true, check: { ok: false, message: expect.stringMatching(/^version: /) } });
  });

  it('keeps a big commit splice in the worker and stores all of it on the commit', async () => {
    const { id, msg } = replaceAll(20_000);
    const decoded = await lib.offload.decodeRequest(bytes(msg));
    if (!decoded.ok) throw new Error('not decoded');
    expect(decoded.check).toEqual({ ok: true });
    const input = decoded.input as { version: number; label: string; splice: Splice };
    // Main gets the input without the cues: they stayed in the worker.
    expect(input.splice).toEqual({ at: 0, remove: [], insert: [] });
    const r = await lib.offload.commitSubtitles(id, input.version, input.label, input.splice);
    expect(r.version).toBe(input.version + 1);
    const doc = lib.subtitles.open(id);
    expect(doc.cues).toHaveLength(20_000);
    expect(doc.cues[19_999]).toMatchObject({ start: 19_999_000, end: 19_999_500, text: 'b 19999' });
  });

  it('drops splices nobody claimed beyond a few, and their commit fails with a clear message', async () => {
    const items = Array.from({ length: 6 }, (_, i) => replaceAll(6_000, `t${i}`));
    const inputs: { version: number; label: string; splice: Splice }[] = [];
    for (const { msg } of items) {
      const d = await lib.offload.decodeRequest(bytes(msg));
      if (!d.ok) throw new Error('not decoded');
      inputs.push(d.input as (typeof inputs)[number]);
    }
    const [first, ...rest] = inputs;
    await expect(lib.offload.commitSubtitles(items[0]!.id, first!.version, first!.label, first!.splice)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/lost on its way.*reopen the Subtitles view/),
    });
    // The newest ones were kept and store in full.
    const last = rest.at(-1)!;
    await lib.offload.commitSubtitles(items[5]!.id, last.version, last.label, last.splice);
    expect(lib.subtitles.open(items[5]!.id).cues).toHaveLength(6_000);
    expect(lib.subtitles.open(items[0]!.id).cues).toHaveLength(1);
  });

  it('answers subtitles.open as JSON of the same document', async () => {
    const { id, msg } = replaceAll(7_000);
    lib.subtitles.commit(id, msg.input.version as number, 'Replace all', msg.input.splice as Splice);
    const json = await lib.offload.openSubtitlesJson(id);
    expect(json).toBeInstanceOf(Uint8Array);
    const objects = await lib.offload.openSubtitles(id);
    expect(objects.checked).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(json!))).toEqual(objects.doc);
    await expect(lib.offload.openSubtitlesJson('missing')).rejects.toMatchObject({ code: 'not_found' });
  });
});
