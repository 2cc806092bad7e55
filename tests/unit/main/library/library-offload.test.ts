/**
 * The library's worker thread (library-offload.ts): subtitles.open answers
 * there what the library reads here, as columns; an edit sent there as its
 * command (subtitles.run) stores what the same command stores in this
 * thread; undo and redo run there too; a 200,000-cue replace from a file's
 * text is stored whole.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Library } from '../../../../src/main/services/library/library';
import { importSubtitlesAsItem } from '../../../../src/main/services/library/subtitle-import';
import { unpackCues, wireDoc } from '../../../../src/shared/subtitles/cue-columns';
import { cuesDigest } from '../../../../src/shared/subtitles/digest';
import { srtOf } from '../../../support/srt';

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

const view = { selection: [[0, 0]] as [number, number][], caret: null, playheadMs: 0 };

describe('the library worker runs subtitle work', () => {
  it('opens a document as the columns of what the library reads in this thread', async () => {
    const id = importSubtitlesAsItem(lib, 'a.vtt', 'WEBVTT\n\nNOTE n\n\nid-1\n00:00:01.000 --> 00:00:02.000 align:start\n<v Ann>Hi there\n').id;
    const doc = await lib.offload.openSubtitles(id);
    expect(doc).toEqual(wireDoc(lib.subtitles.open(id)));
    expect(unpackCues(doc.cues)).toEqual(lib.subtitles.open(id).cues);
    expect(doc.digest).toBe(cuesDigest(lib.subtitles.open(id).cues));
    await expect(lib.offload.openSubtitles('missing')).rejects.toMatchObject({ code: 'not_found' });
    // For host mode's bridge: the same document as JSON the worker wrote (ipc/open-json.ts).
    const json = await lib.offload.openSubtitlesJson(id);
    expect(JSON.parse(new TextDecoder().decode(json!))).toEqual(doc);
    await expect(lib.offload.openSubtitlesJson('missing')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('answers a task sent while the worker closed when idle is still stopping (its exit fails only its own tasks)', async () => {
    const id = importSubtitlesAsItem(lib, 'a.srt', srtOf(3)).id;
    await lib.offload.openSubtitles(id);
    // The idle close, not awaited: the next task starts a new worker while this one exits.
    const closing = lib.offload.close();
    const doc = await lib.offload.openSubtitles(id);
    await closing;
    expect(unpackCues(doc.cues)).toHaveLength(3);
  });

  it('stores a command run there as this thread stores it, undoes and redoes it there, and answers the digest of what it stored', async () => {
    const content = srtOf(3_000);
    const there = importSubtitlesAsItem(lib, 'there.srt', content).id;
    const here = importSubtitlesAsItem(lib, 'here.srt', content).id;
    const edit = { command: 'shiftAllLater' as const, view };
    const a = await lib.offload.runSubtitles(there, lib.subtitles.open(there).version, edit);
    const b = lib.subtitles.run(here, lib.subtitles.open(here).version, edit);
    expect(a).toEqual(b);
    expect(lib.subtitles.open(there).cues).toEqual(lib.subtitles.open(here).cues);
    expect(a.digest).toBe(cuesDigest(lib.subtitles.open(there).cues));
    const undone = await lib.offload.stepSubtitles('undo', there, a.version);
    expect(undone.label).toBe('Shift all later by 100 ms');
    expect(lib.subtitles.open(there).cues[2_999]!.start).toBe(2_999_000);
    const redone = await lib.offload.stepSubtitles('redo', there, undone.version);
    expect(redone.digest).toBe(a.digest);
    await expect(lib.offload.runSubtitles(there, a.version, edit)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('replaces one cue by a 200,000-cue file text (no 16 MiB splice crosses), and refuses one cue more, changing nothing', async () => {
    const id = importSubtitlesAsItem(lib, 'one.srt', srtOf(1)).id;
    const big = srtOf(200_000, () => 'b');
    const r = await lib.offload.runSubtitles(id, lib.subtitles.open(id).version, { command: 'replaceFrom', args: { content: big, name: 'big.srt' }, view });
    const cues = lib.subtitles.open(id).cues;
    expect(cues).toHaveLength(200_000);
    expect(r.digest).toBe(cuesDigest(cues));
    await expect(
      lib.offload.runSubtitles(id, r.version, { command: 'replaceFrom', args: { content: srtOf(200_001), name: 'over.srt' }, view }),
    ).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/200,000/) });
    expect(lib.subtitles.open(id).version).toBe(r.version);
  });
});
