/**
 * The app core's contract proved through the host-mode bridge, as the renderer
 * uses it: keys, settings, jobs, library, search and engine channels, typed
 * errors, and the events pushed on the socket.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { startHostServer, type HostServer } from '../../src/main/host/server';
import { createHostPlatform, ForkEngineLauncher } from '../../src/main/platform/host';
import { channelNames } from '../../src/shared/ipc';
import { startFakeService, type FakeService } from '../unit/main/support/fake-service';
import { openBridge, type BridgeClient } from './support/bridge';

const KEY = 'cloud-key-0123456789-zz9y';
const token = 'host-app-token-0123456789';
let dir: string;
let core: Core;
let host: HostServer;
let svc: FakeService;
let client: BridgeClient;
const call = <T = Record<string, unknown>>(channel: string, input?: unknown): Promise<T> => client.call<T>(channel, input);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-host-app-'));
  delete process.env.ASSEMBLYAI_API_KEY;
  svc = await startFakeService({ apiKey: KEY, dataDir: join(dir, 'svc'), processMs: 100 });
  const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k', 'key') });
  platform.engine = new ForkEngineLauncher(resolve('tests/unit/main/support/fake-engine-cli.ts'));
  core = createCore(platform, (s) => s.kind === 'host' && s.tokenValid, { jobs: { pollStartMs: 100 }, log: () => undefined });
  host = await startHostServer({ core, token, rendererDir: join(dir, 'none'), port: 0 });
  client = await openBridge(host.port, token);
});

afterAll(async () => {
  client.close();
  await host.close();
  await core.dispose();
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

async function waitFor(pred: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('host-mode contract of the app core', () => {
  it('has a handler for every channel in the contract', () => {
    expect(core.router.registered().sort()).toEqual([...channelNames].sort());
  });

  it('keys: status, refused key, stored key masked, removal', async () => {
    expect(await call('keys.status')).toMatchObject({ present: false, masked: null, region: 'local', canStore: true });
    await call('settings.set', { customRestUrl: svc.url });
    await expect(call('keys.set', { key: 'wrong-key-123456', region: 'custom' })).rejects.toMatchObject({ code: 'invalid_key' });
    const ok = await call('keys.set', { key: KEY, region: 'custom' });
    expect(ok).toMatchObject({ present: true, masked: '…zz9y', source: 'vault', region: 'custom', lastError: null });
    expect(client.events.some((e) => e.event === 'keys.changed' && e.payload.present === true)).toBe(true);
    expect(JSON.stringify(client.events)).not.toContain(KEY);
    expect(await call('keys.verify')).toMatchObject({ verifiedAt: expect.any(String) });
    expect(await call('keys.remove')).toMatchObject({ present: false });
    await call('settings.set', { region: 'local' });
  });

  it('rejects invalid input with bad_request before any work', async () => {
    await expect(call('jobs.addFiles', { files: [] })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(call('jobs.addUrl', { url: 'file:///etc/passwd' })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(call('library.list', { limit: 100000 })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(call('jobs.addFiles', { files: [{ kind: 'path', path: join(dir, 'missing.wav') }] })).rejects.toMatchObject({
      code: 'file_unreadable',
      message: expect.stringContaining('missing.wav'),
    });
    await expect(call('library.get', { id: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('runs a job and serves the library: list, get, rename, tags, corrections, speakers, cues, export, search, delete', async () => {
    const file = join(dir, 'Weekly sync.wav');
    writeFileSync(file, Buffer.alloc(4096, 1));
    const { jobs } = await call<{ jobs: { id: string; recordingId: string; durationMs: number | null }[] }>('jobs.addFiles', {
      files: [{ kind: 'path', path: file }],
      durationsMs: [2480],
    });
    const { id: jobId, recordingId: rid } = jobs[0]!;
    // The length the renderer measured shows in the queue at once, before the service has said anything.
    expect(jobs[0]!.durationMs).toBe(2480);
    await expect(call('jobs.addFiles', { files: [{ kind: 'path', path: file }], durationsMs: [-1] })).rejects.toMatchObject({ code: 'bad_request' });
    await waitFor(() => client.events.some((e) => e.event === 'jobs.changed' && (e.payload.job as { status?: string } | null)?.status === 'completed'));
    expect(client.events.some((e) => e.event === 'library.changed' && (e.payload.ids as string[]).includes(rid))).toBe(true);
    expect(client.events.some((e) => e.event === 'engine.status' && e.payload.state === 'running')).toBe(true);

    const list = await call<{ items: { id: string; title: string; status: string }[]; total: number }>('library.list', { sort: 'created' });
    expect(list).toMatchObject({ total: 1, items: [{ id: rid, title: 'Weekly sync', status: 'completed' }] });
    const t = await call<{ words: { text: string[] }; sentences: { start: number[] } }>('library.get', { id: rid });
    expect(t.words.text.length).toBe(15);
    expect(t.sentences.start.length).toBeGreaterThan(0);
    expect(await call('library.rename', { id: rid, title: 'Sync #12' })).toMatchObject({ title: 'Sync #12' });
    expect(await call('library.setTags', { id: rid, tags: ['team', 'team', ' weekly '] })).toMatchObject({ tags: ['team', 'weekly'] });
    expect(await call('library.tags')).toEqual({
      tags: [
        { name: 'team', count: 1 },
        { name: 'weekly', count: 1 },
      ],
    });
    const fixed = await call<{ text: string }>('library.correctWords', { id: rid, edits: [{ index: 0, text: 'Hullo' }] });
    expect(fixed.text.startsWith('Hullo world.')).toBe(true);
    await expect(call('library.correctWords', { id: rid, edits: [{ index: 999, text: 'x' }] })).rejects.toMatchObject({ code: 'bad_request' });
    expect(await call('library.renameSpeaker', { id: rid, speaker: 'A', name: 'Dana' })).toMatchObject({ speakers: [{ id: 'A', name: 'Dana' }] });
    // Cues are edited through the Subtitles view's commands (library.saveCues is gone); the library's export follows.
    const doc = await call<{ version: number }>('subtitles.open', { id: rid });
    const content = '1\n00:00:00,000 --> 00:00:00,900\nHullo world.\n';
    const view = { selection: [], caret: null, playheadMs: 0 };
    expect(await call('subtitles.run', { id: rid, version: doc.version, command: 'replaceFrom', args: { content, name: 'one.srt' }, view })).toEqual({
      version: doc.version + 1,
      digest: expect.stringMatching(/^1:/),
    });
    expect(await call('library.export', { id: rid, format: 'srt' })).toEqual({
      filename: 'Sync #12.srt',
      mime: 'application/x-subrip; charset=utf-8',
      content: '1\n00:00:00,000 --> 00:00:00,900\nHullo world.\n\n',
      encoding: 'utf8',
    });
    const search = await call<{ hits: { recordingId: string; startMs: number; snippet: { text: string; match: boolean }[] }[] }>('search.query', {
      query: 'transcription',
    });
    expect(search.hits[0]).toMatchObject({ recordingId: rid, startMs: 900 });
    expect(search.hits[0]!.snippet.find((p) => p.match)?.text).toBe('transcription');
    const media = await call<{ url: string | null }>('library.mediaUrl', { id: rid });
    expect(media.url).toMatch(new RegExp(`^/media/${rid}\\?token=`));
    expect((await fetch(`http://127.0.0.1:${host.port}${media.url}`)).status).toBe(200);

    const backup = join(dir, 'backup');
    expect(await call('library.exportAll', { dir: backup })).toMatchObject({ items: 1, audioFiles: 1 });
    expect(existsSync(join(backup, 'library.json'))).toBe(true);

    await expect(call('jobs.cancel', { id: jobId })).rejects.toMatchObject({ code: 'conflict' });
    expect(await call('jobs.remove', { id: jobId })).toEqual({ ok: true });
    expect(client.events.some((e) => e.event === 'jobs.changed' && e.payload.id === jobId && e.payload.job === null)).toBe(true);

    expect(await call('library.delete', { ids: [rid], remote: true })).toEqual({ deleted: 1, remoteErrors: [] });
    expect(await call('library.list')).toMatchObject({ total: 0 });
    expect(await call('library.importAll', { dir: backup })).toMatchObject({ imported: 1, skipped: 0 });
    expect(await call('library.get', { id: rid })).toMatchObject({ item: { title: 'Sync #12', hasAudio: true } });
    // The library's copy of the audio removed behind the app's back: the media route answers 404.
    const copy = core.library.audio.path(rid, 'original');
    expect(copy && core.library.audio.isLibraryCopy(copy)).toBe(true);
    rmSync(copy!, { force: true });
    expect((await fetch(`http://127.0.0.1:${host.port}${media.url}`)).status).toBe(404);
  });

  it('answers 400 (not 500) for a media address that is not valid percent-encoding', async () => {
    const res = await fetch(`http://127.0.0.1:${host.port}/media/%E0?token=${token}`);
    expect(res.status).toBe(400);
    expect((await fetch(`http://127.0.0.1:${host.port}/media/%E0%A4?token=${token}`)).status).toBe(400);
  });

  it('answers engine.status and jobs.list with their shapes', async () => {
    expect(await call('engine.status')).toMatchObject({ state: 'running', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    expect(await call('jobs.list', { includeFinished: false })).toEqual({ jobs: [] });
  });
});
