/**
 * A subtitle file named by reference (services/files/subtitle-file.ts): only an
 * upload this host staged (not a link, not one a job uses, not too big) or a
 * path the user picked is read, and the worker reads a staged copy; the worker's reading (subtitle-import.ts
 * subtitleText) decodes it as the renderer does and uses an upload once; and
 * the library's worker replaces cues from such a file.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Library } from '../../../../src/main/services/library/library';
import { importSubtitlesAsItem } from '../../../../src/main/services/library/subtitle-import';
import { subtitleText } from '../../../../src/main/services/library/subtitle-text';
import { PickedFiles } from '../../../../src/main/services/files/picked';
import { UserFiles } from '../../../../src/main/services/files/refs';
import { StagedUploads } from '../../../../src/main/services/files/staged';
import { SUBTITLE_FILE_BYTES, subtitleFileText } from '../../../../src/main/services/files/subtitle-file';
import { readSubtitleFile } from '../../../../src/shared/subtitles/read';
import { srtOf } from '../../../support/srt';

let dir: string;
let uploads: string;
let picked: PickedFiles;
const inUse = new Set<string>();
const deps = () => new UserFiles(picked, new StagedUploads(uploads, () => inUse));
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-subtitle-file-'));
  uploads = join(dir, 'uploads');
  mkdirSync(uploads);
  picked = new PickedFiles(true);
  inUse.clear();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const refusal = async (f: () => unknown) => {
  try {
    await f();
  } catch (e) {
    return { code: (e as { code?: string }).code, message: (e as Error).message };
  }
  return null;
};

describe('subtitleFileText', () => {
  it('takes an upload of this host once, and a picked path as a staged copy read from the opened file', async () => {
    writeFileSync(join(uploads, 'abcdefgh1234'), srtOf(2));
    expect(await subtitleFileText({ kind: 'upload', uploadId: 'abcdefgh1234' }, 'a.srt', deps())).toEqual({
      path: join(uploads, 'abcdefgh1234'),
      remove: true,
    });
    const mine = join(dir, 'mine.srt');
    writeFileSync(mine, srtOf(2));
    picked.add(mine);
    const copy = await subtitleFileText({ kind: 'path', path: mine }, 'mine.srt', deps());
    expect(copy).toMatchObject({ remove: true });
    const copied = (copy as { path: string }).path;
    expect(copied.startsWith(uploads)).toBe(true);
    expect(readFileSync(copied, 'utf8')).toBe(srtOf(2));
  });

  it('refuses what the host did not stage or the user did not pick, with a sentence saying what to do', async () => {
    const secret = join(dir, 'secret.srt');
    writeFileSync(secret, srtOf(1));
    symlinkSync(secret, join(uploads, 'linkedupload1'));
    writeFileSync(join(uploads, 'transcribing1'), 'x');
    inUse.add(join(uploads, 'transcribing1'));
    mkdirSync(join(uploads, 'afolder12345'));
    writeFileSync(join(uploads, 'hugeupload12'), '');
    truncateSync(join(uploads, 'hugeupload12'), SUBTITLE_FILE_BYTES + 1);
    const cases: [unknown, string, RegExp][] = [
      [{ kind: 'upload', uploadId: 'never-issued' }, 'not_found', /gone .*Choose the file again/],
      [{ kind: 'upload', uploadId: '../secret.srt' }, 'bad_request', /not one Verbatim issued/],
      [{ kind: 'upload', uploadId: 'linkedupload1' }, 'forbidden', /not a file Verbatim staged/],
      [{ kind: 'upload', uploadId: 'afolder12345' }, 'forbidden', /not a file Verbatim staged/],
      [{ kind: 'upload', uploadId: 'transcribing1' }, 'conflict', /being transcribed/],
      [{ kind: 'upload', uploadId: 'hugeupload12' }, 'file_too_large', /Split the file/],
      [{ kind: 'path', path: secret }, 'forbidden', /picked or dropped/],
      [{ kind: 'path', path: '/etc/passwd' }, 'forbidden', /picked or dropped/],
    ];
    for (const [ref, code, message] of cases) {
      const r = await refusal(() => subtitleFileText(ref as never, 'x.srt', deps()));
      expect(r?.code, JSON.stringify(ref)).toBe(code);
      expect(r?.message, JSON.stringify(ref)).toMatch(message);
    }
    // The refused too-big upload is of no use to anything: it is gone; the link's target is untouched.
    expect(existsSync(join(uploads, 'hugeupload12'))).toBe(false);
    expect(existsSync(secret)).toBe(true);
    picked.add(join(dir, 'gone.srt'));
    expect((await refusal(() => subtitleFileText({ kind: 'path', path: join(dir, 'gone.srt') }, 'gone.srt', deps())))?.code).toBe('file_unreadable');
  });
});

describe('subtitleText (the worker reading the file)', () => {
  it('decodes the bytes as the renderer reads them, and removes a staged upload once read, even when it does not parse', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nÉté\n', 'utf16le')]);
    const staged = join(uploads, 'utf16upload1');
    writeFileSync(staged, utf16);
    const check = readSubtitleFile('a.srt', new Uint8Array(utf16));
    expect(check.ok && subtitleText({ path: staged, remove: true })).toBe(check.ok && check.text);
    expect(existsSync(staged)).toBe(false);
    const kept = join(dir, 'kept.srt');
    writeFileSync(kept, 'not subtitles');
    expect(subtitleText({ path: kept, remove: false })).toBe('not subtitles');
    expect(existsSync(kept)).toBe(true);
    expect((await refusal(() => subtitleText({ path: join(dir, 'none.srt'), remove: false })))?.code).toBe('file_unreadable');
  });

  it('replaces cues on the library worker from a file, as from the same text inline', async () => {
    const lib = new Library(join(dir, 'data'));
    try {
      const a = importSubtitlesAsItem(lib, 'a.srt', srtOf(1)).id;
      const b = importSubtitlesAsItem(lib, 'b.srt', srtOf(1)).id;
      const text = srtOf(3_000, (i) => `new ${i}`);
      const file = join(uploads, 'replacement1');
      writeFileSync(file, text);
      const view = { selection: [[0, 0]] as [number, number][], caret: null, playheadMs: 0 };
      const byFile = await lib.offload.runSubtitles(a, lib.subtitles.open(a).version, {
        command: 'replaceFrom',
        args: { name: 'n.srt', text: { path: file, remove: true } },
        view,
      });
      const inline = await lib.offload.runSubtitles(b, lib.subtitles.open(b).version, { command: 'replaceFrom', args: { name: 'n.srt', content: text }, view });
      expect(byFile.digest).toBe(inline.digest);
      expect(byFile.digest).toMatch(/^3000:/);
      expect(existsSync(file)).toBe(false);
    } finally {
      await lib.offload.close();
      lib.close();
    }
  });
});
