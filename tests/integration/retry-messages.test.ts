/**
 * What an error says once retrying is over, when the server has gone away:
 * a job against a service that no longer answers, and a model download from
 * a host that refuses or fails, each end with a message that says how many
 * times Verbatim tried and that it stopped, never that it retries.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canceled, type Clock } from '../../src/main/services/client/http';
import { JobService } from '../../src/main/services/jobs';
import { Library } from '../../src/main/services/library/library';
import { download } from '../../src/main/services/models/download';
import { Connection } from '../../src/main/services/models/net';
import { defaultSettings } from '../../src/shared/settings';
import { waitFinal } from '../support/jobs';

const STILL_RETRYING = /retries|will try again|retrying/i;
let dir: string;
const servers: Server[] = [];

/** A port on which nothing answers any more: a server that listened there and went away. */
async function goneAway(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-retry-messages-'));
});
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('a job whose service went away', () => {
  it('fails saying it could not reach the service, tried 4 times and stopped', async () => {
    const port = await goneAway();
    const library = new Library(join(dir, 'data'));
    let t = 0;
    // Virtual time: the backoff's sleeps return at once.
    const clock: Clock = {
      now: () => t,
      random: () => 0.5,
      sleep: async (ms, signal) => {
        if (signal?.aborted) throw canceled();
        t += ms;
        await new Promise((r) => setImmediate(r));
      },
    };
    const settings = { ...defaultSettings, region: 'custom' as const, customRestUrl: `http://127.0.0.1:${port}` };
    const engine = { url: `http://127.0.0.1:${port}`, key: 'k' };
    const jobs = new JobService(
      library,
      { get: () => settings, webhookAuthHeaderValue: () => '' },
      { get: () => 'key', keyFor: () => 'key' },
      { ensure: async () => engine, awaitRunning: async () => engine, current: () => engine },
      null,
      { changed: () => undefined, progress: () => undefined },
      { clock, retry: { attempts: 4, baseMs: 500, capMs: 8000 } },
    );
    try {
      const wav = join(dir, 'talk.wav');
      writeFileSync(wav, Buffer.alloc(32 * 1024, 3));
      const [job] = await jobs.addFiles([{ path: wav, picked: false }]);
      const failed = await waitFinal(jobs, job!.id, 20_000);
      expect(failed.status).toBe('error');
      expect(failed.error?.code).toBe('network');
      expect(failed.error?.message).toMatch(new RegExp(`^Could not reach the transcription service: nothing answers at 127\\.0\\.0\\.1:${port}\\.`));
      expect(failed.error?.message).toMatch(/Verbatim tried 4 times and has stopped\.$/);
      expect(failed.error?.message).not.toMatch(STILL_RETRYING);
    } finally {
      await jobs.dispose();
      library.close();
    }
  });
});

describe('a model download whose host went away or keeps failing', () => {
  /** The download's error: it must fail. */
  const fail = (url: string): Promise<Error> =>
    get(url).then(
      () => {
        throw new Error('the download succeeded');
      },
      (e: unknown) => e as Error,
    );
  const get = (url: string) =>
    download({
      url,
      part: join(dir, `${Math.random().toString(36).slice(2)}.part`),
      magic: Buffer.from('BZh'),
      connection: new Connection({}),
      signal: new AbortController().signal,
      onProgress: () => undefined,
      stallMs: 10_000,
      maxAttempts: 3,
      retryBaseMs: 5,
    });

  it('a refused connection: says it tried 3 times and stopped', async () => {
    const port = await goneAway();
    const err = await fail(`http://127.0.0.1:${port}/m.tar.bz2`);
    expect(err).toMatchObject({ kind: 'network' });
    expect(err.message).toMatch(/^The connection to 127\.0\.0\.1:\d+ failed \(ECONNREFUSED\)\..*Verbatim tried 3 times in a row and has stopped\.$/);
    expect(err.message).not.toMatch(STILL_RETRYING);
  });

  it('a server error on every try: the same', async () => {
    const s = createServer((_req, res) => res.writeHead(503).end());
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const { port } = s.address() as AddressInfo;
    const err = await fail(`http://127.0.0.1:${port}/m.tar.bz2`);
    expect(err).toMatchObject({ kind: 'http', status: 503 });
    expect(err.message).toMatch(/had a server error \(HTTP 503\)\..*Verbatim tried 3 times in a row and has stopped\.$/);
    expect(err.message).not.toMatch(STILL_RETRYING);
  });
});
