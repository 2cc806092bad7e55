/**
 * A subtitle file imported as a new library item beside its video (issue 14):
 * in host mode the video comes through the real `/upload` route and the
 * bridge; on the desktop it is a file the user picked, or a same-named file
 * beside the picked subtitles. The item then plays its media with its cues,
 * and its waveform is made without the Subtitles view asking.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { startHostServer, type HostServer } from '../../src/main/host/server';
import { createHostPlatform } from '../../src/main/platform/host';
import { call as callRouter } from '../support/router';
import { openBridge, type BridgeClient } from './support/bridge';

const token = 'subtitle-media-token-0123456789';
let dir: string;
let core: Core;
let host: HostServer;
let client: BridgeClient;

const SRT = '1\n00:00:00,200 --> 00:00:01,400\nThe tide comes in\n\n2\n00:00:01,600 --> 00:00:02,800\nand the boats float again.\n';

const bridge = <T = Record<string, unknown>>(channel: string, input?: unknown): Promise<T> => client.call<T>(channel, input);

async function upload(name: string, bytes: Buffer): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${host.port}/upload?token=${token}&name=${encodeURIComponent(name)}`, {
    method: 'POST',
    body: new Uint8Array(bytes),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { uploadId: string }).uploadId;
}

function video(path: string): void {
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=160x90:rate=10:duration=3',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=330:duration=3',
    '-shortest',
    '-pix_fmt',
    'yuv420p',
    path,
  ]);
}

const uploads = () => (existsSync(join(dir, 'data', 'uploads')) ? readdirSync(join(dir, 'data', 'uploads')) : []);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-subtitle-media-'));
  core = createCore(
    createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k', 'key') }),
    (s) => s.kind === 'host' && s.tokenValid,
    {
      log: () => undefined,
      resume: false,
    },
  );
  host = await startHostServer({ core, token, rendererDir: join(dir, 'none'), port: 0 });
  client = await openBridge(host.port, token);
  mkdirSync(join(dir, 'desk'));
  video(join(dir, 'desk', 'Harbour.mp4'));
});

afterAll(async () => {
  client?.close();
  await host?.close();
  await core?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('importing subtitles as a new item beside its video', () => {
  it('host mode: the video uploaded with the SRT is copied into the library, played by the media route and drawn as a waveform', async () => {
    const uploadId = await upload('Harbour.mp4', readFileSync(join(dir, 'desk', 'Harbour.mp4')));
    const r = await bridge<{ id: string; cues: number; media: string | null }>('subtitles.importNew', {
      name: 'Harbour.srt',
      content: SRT,
      media: { kind: 'upload', uploadId, name: 'Harbour.mp4' },
    });
    expect(r).toMatchObject({ cues: 2, media: 'Harbour.mp4' });
    // The staged upload moved into the library's audio folder.
    expect(uploads()).not.toContain(uploadId);
    const t = await bridge<{ item: { title: string; source: string; hasAudio: boolean } }>('library.get', { id: r.id });
    expect(t.item).toMatchObject({ title: 'Harbour', source: 'Harbour.mp4', hasAudio: true });
    const { url } = await bridge<{ url: string }>('library.mediaUrl', { id: r.id });
    const media = await fetch(`http://127.0.0.1:${host.port}${url}`);
    expect(media.status).toBe(200);
    expect(Buffer.from(await media.arrayBuffer()).equals(readFileSync(join(dir, 'desk', 'Harbour.mp4')))).toBe(true);
    const doc = await bridge<{ cues: { text: string[] } }>('subtitles.open', { id: r.id });
    expect(doc.cues.text).toEqual(['The tide comes in', 'and the boats float again.']);
    await expect.poll(() => core.library.subtitles.storedPeaks(r.id), { timeout: 20_000, interval: 50 }).not.toBeNull();
    const peaks = core.library.subtitles.storedPeaks(r.id)!;
    expect(peaks.rate).toBe(50);
    // Three seconds of video (the AAC encoder pads a few milliseconds).
    expect(Math.abs(peaks.durationMs - 3000)).toBeLessThan(100);
  });

  it('host mode: a file that is not video or audio is refused with a clear error, and nothing is added or left staged', async () => {
    const before = core.library.recordings.list({}).total;
    const uploadId = await upload('notes.txt', Buffer.from('not a video'));
    await expect(
      bridge('subtitles.importNew', { name: 'Harbour.srt', content: SRT, media: { kind: 'upload', uploadId, name: 'notes.txt' } }),
    ).rejects.toMatchObject({ code: 'unsupported_media', message: expect.stringMatching(/“notes\.txt” is not a video or audio file.*Nothing was added/) });
    await expect(
      bridge('subtitles.importNew', { name: 'Harbour.srt', content: SRT, media: { kind: 'upload', uploadId: 'no-such-upload-123', name: 'a.mp4' } }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      bridge('subtitles.importNew', { name: 'Harbour.srt', content: SRT, media: { kind: 'upload', uploadId: '../../library.sqlite', name: 'a.mp4' } }),
    ).rejects.toMatchObject({ code: 'bad_request' });
    expect(uploads()).not.toContain(uploadId);
    expect(core.library.recordings.list({}).total).toBe(before);
  });

  it('desktop: a picked subtitle file finds the same-named video beside it (language tag and all) and the item plays it', async () => {
    const srt = join(dir, 'desk', 'Harbour.en.srt');
    writeFileSync(srt, SRT);
    writeFileSync(join(dir, 'desk', 'Harbour.txt'), 'same name, not media');
    core.picked.add(srt);
    const r = await callRouter(core.router, 'subtitles.importNew', { name: 'Harbour.en.srt', file: { kind: 'path', path: srt } });
    expect(r.media).toBe('Harbour.mp4');
    const path = core.library.audio.path(r.id);
    // A copy in the library's folder, not the file on the desktop.
    expect(path).toBe(join(dir, 'data', 'audio', `${r.id}.mp4`));
    expect(existsSync(join(dir, 'desk', 'Harbour.mp4'))).toBe(true);
  });

  it('desktop: a video picked with the subtitles is attached; a path the user never picked is refused', async () => {
    const picked = join(dir, 'desk', 'Other.mp4');
    video(picked);
    core.picked.add(picked);
    const r = await callRouter(core.router, 'subtitles.importNew', { name: 'Clip.vtt', content: `WEBVTT\n\n${SRT}`, media: { kind: 'path', path: picked } });
    expect(r.media).toBe('Other.mp4');
    expect(core.library.recordings.item(r.id)).toMatchObject({ hasAudio: true, source: 'Other.mp4' });
    const before = core.library.recordings.list({}).total;
    const secret = join(dir, 'secret.mp4');
    video(secret);
    await expect(callRouter(core.router, 'subtitles.importNew', { name: 'x.srt', content: SRT, media: { kind: 'path', path: secret } })).rejects.toMatchObject({
      code: 'forbidden',
    });
    // A subtitle path that was not picked is not read, nor anything beside it.
    writeFileSync(join(dir, 'secret.srt'), SRT);
    await expect(
      callRouter(core.router, 'subtitles.importNew', { name: 'secret.srt', file: { kind: 'path', path: join(dir, 'secret.srt') } }),
    ).rejects.toMatchObject({ code: 'forbidden', message: expect.stringMatching(/picked or dropped/) });
    expect(core.library.recordings.list({}).total).toBe(before);
  });
});
