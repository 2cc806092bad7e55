/**
 * The official SDK's StreamingTranscriber (which refuses non-wss URLs)
 * against the engine serving TLS with a self-signed certificate made here.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tls from 'node:tls';
import { StreamingTranscriber } from 'assemblyai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import { engineSandbox, type EngineSandbox } from '../support/engine';
import { selfSignedCert } from '../support/tls';

const KEY = 'tls-test-key';
let sandbox: EngineSandbox;
let dir: string;
let engine: RunningEngine;
let pcm: Buffer;
let savedCAs: string[] = [];

beforeAll(async () => {
  sandbox = engineSandbox('verbatim-tls-');
  dir = sandbox.dir;
  const pem = selfSignedCert(dir);
  // The SDK opens its socket with `ws` and no CA option: trust our certificate process-wide for this test file.
  savedCAs = tls.getCACertificates('default');
  tls.setDefaultCACertificates([...savedCAs, readFileSync(pem.cert, 'utf8')]);
  execFileSync('flite', ['-voice', 'slt', '-t', 'Please send the quarterly report to the finance team.', '-o', join(dir, 'say.wav')]);
  execFileSync('sox', [join(dir, 'say.wav'), '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-t', 'raw', join(dir, 'say.raw')]);
  const speech = readFileSync(join(dir, 'say.raw'));
  // Whole 50 ms frames: the service closes 3007 on shorter ones.
  pcm = Buffer.concat([Buffer.alloc(8000), speech, Buffer.alloc(48000 + (1600 - (speech.length % 1600)))]);
  engine = await sandbox.start(KEY, { tls: { cert: pem.cert, key: pem.key } });
});

afterAll(async () => {
  if (savedCAs.length) tls.setDefaultCACertificates(savedCAs);
  await sandbox.cleanup();
});

describe('engine over TLS', () => {
  it('serves https with --tls-cert/--tls-key', async () => {
    expect(engine.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const r = await fetch(`${engine.url}/health`);
    expect(r.status).toBe(200);
  });

  it('works with the official SDK StreamingTranscriber over wss', async () => {
    const transcriber = new StreamingTranscriber({
      websocketBaseUrl: `${engine.url.replace('https:', 'wss:')}/v3/ws`,
      apiKey: KEY,
      sampleRate: 16000,
      // The SDK gives up on a connection after 1 s by default; a loaded machine can take longer to answer Begin.
      connectTimeout: 30_000,
      formatTurns: true,
    });
    const turns: { transcript: string; end_of_turn: boolean; turn_is_formatted: boolean; turn_order: number }[] = [];
    transcriber.on('turn', (t) => turns.push(t));
    transcriber.on('error', () => undefined);
    const begin = await transcriber.connect();
    expect(begin.id).toMatch(/^[0-9a-f-]{36}$/);
    const start = Date.now();
    for (let i = 0, n = 0; i < pcm.length; i += 1600, n++) {
      transcriber.sendAudio(new Uint8Array(pcm.subarray(i, i + 1600)).buffer);
      const due = start + (n + 1) * 50 - Date.now();
      if (due > 0) await new Promise((r) => setTimeout(r, due));
    }
    // close(true, 0) sends Terminate and waits with no time limit: it resolves only on the engine's
    // Termination (or its closing the socket), never on the SDK's 5 s fallback.
    await transcriber.close(true, 0);
    const formatted = turns.find((t) => t.end_of_turn && t.turn_is_formatted);
    expect(formatted?.transcript).toMatch(/^[A-Z].*(report|finance).*\.$/);
    expect(turns.some((t) => !t.end_of_turn)).toBe(true);
  });
});
