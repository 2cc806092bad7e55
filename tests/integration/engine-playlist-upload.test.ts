/**
 * Issue 12.7: an uploaded playlist must not make ffmpeg read other files.
 * An HLS playlist pointing at a local file (file://) is uploaded like any
 * media; the job must end in a clear error instead of transcribing the local
 * file, with --allow-file-urls off as by default.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type RunningEngine } from '../../src/engine/server';
import { makeSpeech } from '../fixtures/speech';

const KEY = 'test-key-playlist';
let dir: string;
let engine: RunningEngine;
let secret: string;

async function api(path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const res = await fetch(`${engine.url}${path}`, {
    ...init,
    headers: { authorization: KEY, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
  return (await res.json()) as Record<string, unknown>;
}

async function transcribeUpload(body: Buffer | string): Promise<Record<string, unknown>> {
  const up = await api('/v2/upload', {
    method: 'POST',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers: { 'content-type': 'application/octet-stream' },
  });
  const t = await api('/v2/transcript', { method: 'POST', body: JSON.stringify({ audio_url: up.upload_url }) });
  for (;;) {
    const s = await api(`/v2/transcript/${String(t.id)}`);
    if (s.status === 'completed' || s.status === 'error') return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'engine-playlist-'));
  // The "local file" an attacker wants read: speech with a recognisable sentence, as MP3 (an HLS segment type).
  const wav = makeSpeech(dir, 'secret', 'the secret meeting is on monday');
  secret = join(dir, 'secret.mp3');
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', wav, '-c:a', 'libmp3lame', '-b:a', '64k', secret]);
  engine = await startEngine({ host: '127.0.0.1', port: 0, apiKey: KEY, dataDir: join(dir, 'data'), workers: 1, quiet: true });
});

afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('uploaded playlists', () => {
  it('ends an HLS playlist that points at a local file in a clear error, without reading that file', async () => {
    const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:3,\nfile://${secret}\n#EXT-X-ENDLIST\n`;
    writeFileSync(join(dir, 'evil.m3u8'), playlist);
    const t = await transcribeUpload(playlist);
    expect(t.status).toBe('error');
    expect(String(t.error)).toMatch(/playlist.*\(format hls\).*Upload the audio or video file itself/);
    expect(t.text ?? '').not.toMatch(/secret|meeting|monday/i);
  });

  it('refuses a concat script naming a local file the same way', async () => {
    const t = await transcribeUpload(`ffconcat version 1.0\nfile '${secret}'\n`);
    expect(t.status).toBe('error');
    expect(t.text ?? '').not.toMatch(/secret|meeting|monday/i);
  });

  it('still transcribes the media file itself', async () => {
    const t = await transcribeUpload(readFileSync(secret));
    expect(t.status).toBe('completed');
    expect(String(t.text)).toMatch(/meeting/i);
  });
});
