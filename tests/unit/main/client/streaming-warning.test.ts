// Main's streaming client reads Warning messages leniently: the SDK's shape (a number code and `warning`), which the local
// engine sends, a `message` text, extra fields; a Warning of the wrong shape is skipped, and Turns go on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { StreamingClient } from '../../../../src/main/services/client/streaming';
import { StreamingServerMessageSchema, WARNING_SLOWER_THAN_REAL_TIME } from '../../../../src/shared/api/streaming';

const SENT = [
  { type: 'Warning', warning_code: WARNING_SLOWER_THAN_REAL_TIME, warning: 'The live model x decodes slower than real time.' },
  { type: 'Warning', warning_code: 3005, warning: 'Audio is arriving faster than real time.', extra: { a: 1 } },
  { type: 'Warning', warning_code: { nested: true }, message: 'a code of the wrong type' },
  { type: 'Warning', warning_code: 'long', message: 'x'.repeat(2000) },
  { type: 'Turn', turn_order: 0, turn_is_formatted: false, end_of_turn: true, transcript: 'hello', words: [] },
];

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

describe('StreamingClient warnings', () => {
  it('passes each Warning on with its code and text, skips a malformed one, and keeps reading', async () => {
    server = createServer();
    const wss = new WebSocketServer({ server });
    wss.on('connection', (ws) => {
      ws.send(JSON.stringify({ type: 'Begin', id: 's1', expires_at: 9999999999 }));
      for (const m of SENT) ws.send(JSON.stringify(m));
      ws.on('message', (d, bin) => {
        if (!bin && (JSON.parse(d.toString()) as { type: string }).type === 'Terminate') {
          ws.send(JSON.stringify({ type: 'Termination', audio_duration_seconds: 0, session_duration_seconds: 0 }));
          ws.close(1000);
        }
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const warnings: { code: string; message: string; session: number }[] = [];
    const turns: string[] = [];
    const client = new StreamingClient(
      { baseUrl: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, key: 'k' },
      { warning: (w) => warnings.push(w), turn: (t) => turns.push(t.transcript) },
    );
    await client.start();
    await expect.poll(() => turns.length, { timeout: 20_000 }).toBe(1);
    await client.terminate();
    expect(warnings).toEqual([
      { code: 'slower_than_real_time', message: 'The live model x decodes slower than real time.', session: 0 },
      { code: '3005', message: 'Audio is arriving faster than real time.', session: 0 },
      { code: 'long', message: 'x'.repeat(500), session: 0 },
    ]);
  });

  it('the strict schema the engine types its messages by takes the engine’s Warning and refuses extras', () => {
    expect(StreamingServerMessageSchema.safeParse(SENT[0]).success).toBe(true);
    expect(StreamingServerMessageSchema.safeParse({ ...SENT[0], extra: 1 }).success).toBe(false);
    expect(StreamingServerMessageSchema.safeParse({ type: 'Warning', warning_code: 'x', warning: 'a string code' }).success).toBe(false);
  });
});
