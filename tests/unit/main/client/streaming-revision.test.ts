// Main's streaming client reads a SpeakerRevision in the official SDK's shape (SpeakerRevisionEvent) from any service:
// each changed turn's label (from its words' speaker when the item names none), with the session it belongs to.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { StreamingClient, type SpeakerRevision } from '../../../../src/main/services/client/streaming';

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

describe('StreamingClient SpeakerRevision', () => {
  it('hands each revised turn on with its new label and session; an item with no label at all is skipped', async () => {
    server = createServer();
    const wss = new WebSocketServer({ server });
    wss.on('connection', (ws) => {
      ws.send(JSON.stringify({ type: 'Begin', id: 's1', expires_at: 9999999999 }));
      const word = (speaker?: string) => ({ text: 'hi', start: 0, end: 90, confidence: 0.9, word_is_final: true, ...(speaker ? { speaker } : {}) });
      ws.send(
        JSON.stringify({
          type: 'SpeakerRevision',
          revisions: [
            { turn_order: 1, speaker_label: 'B', words: [word('B')] },
            { turn_order: 3, words: [word('C')] },
            { turn_order: 4, words: [word()] },
          ],
        }),
      );
      ws.on('message', (d, bin) => {
        if (!bin && (JSON.parse(d.toString()) as { type: string }).type === 'Terminate') {
          ws.send(JSON.stringify({ type: 'Termination', audio_duration_seconds: 0, session_duration_seconds: 0 }));
          ws.close(1000);
        }
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const got: { session: number; revisions: SpeakerRevision[] }[] = [];
    const client = new StreamingClient(
      { baseUrl: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, key: 'k' },
      { speakerRevision: (r) => got.push(r) },
    );
    await client.start();
    await expect.poll(() => got.length, { timeout: 20_000 }).toBe(1);
    await client.terminate();
    expect(got).toEqual([
      {
        session: 0,
        revisions: [
          { turn_order: 1, speaker_label: 'B' },
          { turn_order: 3, speaker_label: 'C' },
        ],
      },
    ]);
  });
});
