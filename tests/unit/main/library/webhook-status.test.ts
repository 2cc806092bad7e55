import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../../src/shared/errors';
import type { RestClient, WireTranscript } from '../../../../src/main/services/client/rest';
import { Library } from '../../../../src/main/services/library/library';
import { WebhookFollower } from '../../../../src/main/services/library/webhook-status';

let dir: string;
let lib: Library;
let follower: WebhookFollower | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-hook-'));
  lib = new Library(join(dir, 'data'));
});
afterEach(() => {
  follower?.dispose();
  lib.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A completed cloud transcript submitted with the user's webhook (the query holds their secret). */
function completedWithWebhook(webhook: string | null = 'https://hooks.example.org/t?secret=s3'): string {
  const { recordingId, transcriptId } = lib.recordings.add({
    title: 'Call',
    source: 'call.wav',
    sourceKind: 'file',
    sizeBytes: 1,
    region: 'us',
    baseUrl: 'https://api.assemblyai.com',
    options: {},
  });
  if (webhook) lib.webhooks.begin(transcriptId, webhook);
  lib.transcripts.complete(transcriptId, {
    remoteId: 'remote-1',
    text: 'hi',
    words: [],
    sentences: null,
    paragraphs: null,
    confidence: 1,
    language: 'en',
    model: 'm',
    durationMs: 1000,
  });
  return recordingId;
}

/** The service at the network edge: each GET answers the next webhook_status_code (or throws). */
function serviceAnswering(codes: (number | null | Error)[]) {
  const asked: string[] = [];
  let i = 0;
  const client = {
    get: async (id: string) => {
      asked.push(id);
      const next = codes[Math.min(i++, codes.length - 1)];
      if (next instanceof Error) throw next;
      return { id, status: 'completed', webhook_status_code: next } as WireTranscript;
    },
  } as unknown as RestClient;
  return { clientFor: async () => client, asked };
}

const until = async (what: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

const fast = { delaysMs: [5, 10, 20], everyMs: 20, windowMs: 2000 };

describe('following the user webhook after completion', () => {
  it('shows pending, then retrying after a 500, then delivered after a 200, and stops asking', async () => {
    const id = completedWithWebhook();
    expect(lib.transcripts.get(id).webhook).toEqual({ url: 'https://hooks.example.org/t', state: 'pending', statusCode: null, checkedAt: null });
    const svc = serviceAnswering([null, 500, 200]);
    const changes: string[] = [];
    lib.onChange((c) => changes.push(...c.ids));
    follower = new WebhookFollower(lib, svc.clientFor, fast);
    follower.follow(id);
    await until(() => lib.webhooks.status(id)?.state === 'delivered');
    expect(lib.transcripts.get(id).webhook).toMatchObject({ state: 'delivered', statusCode: 200, checkedAt: expect.any(String) });
    expect(svc.asked).toEqual(['remote-1', 'remote-1', 'remote-1']);
    expect(changes.filter((c) => c === id)).toHaveLength(2); // 500, then 200: the open transcript reloads twice
    // No check planned or under way: nothing more will be asked.
    await until(() => !follower!.isFollowing(id));
    expect(svc.asked).toHaveLength(3);
  });

  it('settles as failed at once on a 4xx (the service stops retrying)', async () => {
    const id = completedWithWebhook();
    const svc = serviceAnswering([404]);
    follower = new WebhookFollower(lib, svc.clientFor, fast);
    follower.follow(id);
    await until(() => lib.webhooks.status(id)?.state === 'failed');
    expect(lib.webhooks.status(id)).toMatchObject({ state: 'failed', statusCode: 404 });
    await until(() => !follower!.isFollowing(id));
    expect(svc.asked).toHaveLength(1);
  });

  it('settles as failed when the retry window ends with no 2xx', async () => {
    const id = completedWithWebhook();
    const svc = serviceAnswering([503]);
    follower = new WebhookFollower(lib, svc.clientFor, { delaysMs: [5], everyMs: 30, windowMs: 150 });
    follower.follow(id);
    await until(() => lib.webhooks.status(id)?.state === 'failed');
    expect(lib.webhooks.status(id)).toMatchObject({ state: 'failed', statusCode: 503 });
  });

  it('keeps asking through a network fault within the window', async () => {
    const id = completedWithWebhook();
    const svc = serviceAnswering([new AppError('network', 'offline'), 200]);
    const logs: string[] = [];
    follower = new WebhookFollower(lib, svc.clientFor, { ...fast, log: (m) => logs.push(m) });
    follower.follow(id);
    await until(() => lib.webhooks.status(id)?.state === 'delivered');
    expect(logs.join('\n')).toMatch(/offline/);
  });

  it('does nothing for a transcript sent without a webhook', async () => {
    const id = completedWithWebhook(null);
    const svc = serviceAnswering([200]);
    follower = new WebhookFollower(lib, svc.clientFor, fast);
    follower.follow(id);
    // follow() planned no check, so none can come.
    expect(follower.isFollowing(id)).toBe(false);
    expect(svc.asked).toEqual([]);
    expect(lib.transcripts.get(id).webhook).toBeNull();
    expect(await follower.check(id)).toBeNull();
  });

  it('resumes unsettled webhooks after a restart, and answers "Check again" on demand', async () => {
    const id = completedWithWebhook();
    const svc = serviceAnswering([500, 200]);
    follower = new WebhookFollower(lib, svc.clientFor, { delaysMs: [60_000], everyMs: 60_000, windowMs: 240_000 });
    expect(await follower.check(id)).toMatchObject({ state: 'retrying', statusCode: 500 });
    follower.dispose();
    follower = new WebhookFollower(lib, svc.clientFor, fast);
    follower.resume();
    await until(() => lib.webhooks.status(id)?.state === 'delivered');
    expect(lib.webhooks.unsettled()).toEqual([]);
  });
});
