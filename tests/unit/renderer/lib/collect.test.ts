// lib/collect: which dropped files are media, and why the others are skipped.
import { describe, expect, it } from 'vitest';
import { classify, sortFiles } from '../../../../src/renderer/src/lib/collect';

describe('drop classification', () => {
  it('accepts audio and video by MIME type or by extension', () => {
    expect(classify('a.wav', 'audio/wav', 10)).toEqual({ ok: true, kind: 'audio' });
    expect(classify('clip.MKV', '', 10)).toEqual({ ok: true, kind: 'video' });
    expect(classify('noext', 'video/mp4', 10)).toEqual({ ok: true, kind: 'video' });
  });
  it('skips non-media, empty, hidden and oversized files with a reason that says what to do', () => {
    const txt = classify('notes.txt', 'text/plain', 10);
    expect(txt.ok).toBe(false);
    expect(!txt.ok && txt.reason).toMatch(/Not audio or video \(a \.txt file\)/);
    expect(classify('empty.wav', 'audio/wav', 0)).toMatchObject({ ok: false, reason: expect.stringMatching(/empty \(0 bytes\).*Pick another file/) });
    expect(classify('folder/.DS_Store', '', 10)).toMatchObject({ ok: false });
    expect(classify('huge.mp4', 'video/mp4', 6e9)).toMatchObject({ ok: false, reason: expect.stringMatching(/5 GB/) });
  });
  it('sorts a batch into files and skipped without stopping at the first bad one', () => {
    const list = [new File(['x'], 'a.txt'), new File([], 'b.wav', { type: 'audio/wav' }), new File(['abc'], 'c.mp3', { type: 'audio/mpeg' })];
    const out = sortFiles(list);
    expect(out.files.map((f) => f.path)).toEqual(['c.mp3']);
    expect(out.skipped.map((s) => s.name)).toEqual(['a.txt', 'b.wav']);
  });
});
