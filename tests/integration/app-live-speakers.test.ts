/**
 * Speakers in live captions through the app's captions service against the local engine (started by the
 * app, with the tiny speaker-embedding model in its models folder): with speaker labels on, the system
 * audio's two flite voices (each marked by a quiet tone the tiny model hears as the voice) take turns A, B,
 * A and the captions say so; the microphone stays You; the saved session keeps the labels.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveTurn } from '../../src/shared/captions';
import { liveWho } from '../../src/shared/voices/live';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { CaptionsService } from '../../src/main/services/captions/service';
import { StreamingClient } from '../../src/main/services/client/streaming';
import { installModel, MARKS, markedConversation, tinyEmbedding, voiceAt, type Turn } from '../fixtures/models/speakers';
import { ABA_LINES, feedCaptions } from '../support/live-audio';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-live-speakers-'));
let core: Core;
let engine: { url: string; key: string };
let talk: { pcm: Int16Array; turns: Turn[] };

beforeAll(async () => {
  installModel(join(dir, 'data', 'models'), 'tiny-embedding', 'embedding', tinyEmbedding({ hz: MARKS }));
  talk = markedConversation(join(dir, 'talk'), ABA_LINES, { gapMs: 2000 });
  core = createCore(createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k') }), () => true, { resume: false });
  engine = await core.engine.ensure();
});
afterAll(async () => {
  await core?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('speakers in live captions', () => {
  it('labels the system audio’s voices A, B, A while the microphone stays You, and the session keeps them', async () => {
    const turns: LiveTurn[] = [];
    const svc = new CaptionsService({
      library: core.library,
      target: async () => ({ region: 'local', baseUrl: null }),
      streaming: async (o, h) => new StreamingClient({ ...o, baseUrl: engine.url.replace(/^http/, 'ws'), key: engine.key }, h),
      improve: (id, title) => core.jobs.addLiveVersion(id, title),
      events: { turn: (t) => turns.push(t), status: () => undefined, run: () => undefined },
    });
    const run = await svc.start({ sources: ['mic', 'system'], speakerLabels: true, recordingMime: 'audio/webm;codecs=opus' });
    const system = Buffer.from(talk.pcm.buffer, talk.pcm.byteOffset, talk.pcm.byteLength);
    await Promise.all([
      feedCaptions(svc, run.run, 'system', Buffer.concat([system, Buffer.alloc(32_000)])),
      feedCaptions(svc, run.run, 'mic', Buffer.alloc(system.length)),
    ]);
    await svc.stop(run.run);
    const finals = turns.filter((t) => t.final && t.source === 'system' && t.words.length > 0);
    const labelled = finals.filter((t) => t.speaker);
    for (const t of labelled) {
      const mid = t.words[Math.floor(t.words.length / 2)]!;
      expect(t.speaker, t.text).toBe(voiceAt(talk.turns, (mid.start + mid.end) / 2));
    }
    const order = labelled.map((t) => t.speaker).filter((s, i, all) => s !== all[i - 1]);
    expect(order).toEqual(['A', 'B', 'A']);
    expect(labelled.map((t) => liveWho(t, true))).toContain('Speaker B');
    const saved = core.library.transcripts.get(run.recordingId);
    expect(saved.speakers.map((s) => s.id).sort()).toEqual(expect.arrayContaining(['A', 'B']));
    expect(saved.words.filter((w) => w.speaker === 'You')).toEqual([]);
  });
});
