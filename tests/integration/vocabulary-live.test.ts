/**
 * The vocabulary reaches live captions: a session started with its own keyterms opens its streaming
 * connection to the real local engine with those terms first and then the vocabulary's, each once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { call } from '../support/router';

let dir: string;
let core: Core | undefined;
afterEach(async () => {
  await core?.dispose();
  core = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('vocabulary in live captions', () => {
  it('opens the streaming session with the session’s keyterms, then the vocabulary', async () => {
    dir = mkdtempSync(join(tmpdir(), 'verbatim-vocab-live-'));
    const prev = process.env.ASSEMBLYAI_API_KEY;
    delete process.env.ASSEMBLYAI_API_KEY;
    core = createCore(createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k') }), () => true, { log: () => undefined });
    if (prev !== undefined) process.env.ASSEMBLYAI_API_KEY = prev;
    await call(core.router, 'settings.set', { vocabulary: ['Phoebe', 'acme'] });

    // What the captions service asks the streaming client for, passed on to the real client and engine.
    const asked: (string[] | undefined)[] = [];
    const real = core.clients.streaming.bind(core.clients);
    core.clients.streaming = (opts, handlers) => {
      asked.push(opts.keytermsPrompt);
      return real(opts, handlers);
    };
    const states: string[] = [];
    core.router.subscribe((event, payload) => {
      if (event === 'captions.status') states.push((payload as { state: string }).state);
    });
    const run = await call(core.router, 'captions.start', { sources: ['mic'], keyterms: ['Acme', 'Ottolenghi'], recordingMime: 'audio/webm;codecs=opus' });
    // captions.start answers once each source's session is opened.
    expect(asked).toEqual([['Acme', 'Ottolenghi', 'Phoebe']]);
    // And the engine took them: the session went live (a bad keyterms_prompt closes it with 3006).
    await expect.poll(() => states).toContain('live');
    await call(core.router, 'captions.stop', { run: run.run });
  });
});
