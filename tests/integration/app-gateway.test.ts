/**
 * The gateway client against the real local engine: a transcript made by a
 * job, then chat completions (plain and streamed) about it with the offline
 * `verbatim-extractive` model, and the rate-limit state pushed as an IPC event.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { hasFlite as fliteInstalled } from '../fixtures/speech';
import { waitFinal } from '../support/jobs';
import { call } from '../support/router';

const hasFlite = fliteInstalled();
if (!hasFlite) console.log('app-gateway test skipped: flite is needed to make speech');

const dir = mkdtempSync(join(tmpdir(), 'verbatim-app-gw-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!hasFlite)('gateway client against the local engine', () => {
  it('chats about a transcript, streamed and not, and reports the rate-limit state', async () => {
    execFileSync('flite', ['-t', 'The budget meeting is on Friday. We will discuss the river project.', '-o', join(dir, 'm.wav')]);
    delete process.env.ASSEMBLYAI_API_KEY;
    const core = createCore(createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k') }), () => true, { log: () => undefined });
    const events: { event: string; payload: unknown }[] = [];
    core.router.subscribe((event, payload) => events.push({ event, payload }));
    try {
      const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: join(dir, 'm.wav') }] });
      const job = await waitFinal(core.jobs, jobs[0]!.id, 90_000);
      expect(job.status, JSON.stringify(job.error)).toBe('completed');
      const gw = await core.clients.gateway();
      const models = await gw.models();
      expect(models.map((m) => m.id)).toContain('verbatim-extractive');
      const request = {
        model: 'verbatim-extractive',
        transcript_id: job.remoteId!,
        messages: [{ role: 'user' as const, content: 'What is said here? {{ transcript }}' }],
      };
      const answer = await gw.chat(request);
      expect(answer.choices[0]!.message.content ?? '').not.toBe('');
      const deltas: string[] = [];
      const streamed = await gw.chatStream(request, (d) => deltas.push(d));
      expect(streamed.length).toBeGreaterThan(0);
      expect(deltas.join('')).toBe(streamed);
      const limits = events.filter((e) => e.event === 'gateway.rateLimit').map((e) => e.payload as { model: string; limit: number; remaining: number });
      expect(limits.length).toBeGreaterThanOrEqual(2);
      expect(limits[1]).toMatchObject({ model: 'verbatim-extractive', remaining: limits[0]!.remaining - 1 });
    } finally {
      await core.dispose();
    }
  });
});
