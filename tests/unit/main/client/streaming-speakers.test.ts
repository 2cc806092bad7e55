// Main's streaming client passes speaker labels through for any service (cloud or local): it asks with
// speaker_labels and max_speakers as the published spec names them, and hands each Turn's speaker_label on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { StreamingClient, type Turn } from '../../../../src/main/services/client/streaming';

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

async function run(opts: { speakerLabels?: boolean; maxSpeakers?: number }): Promise<{ query: URLSearchParams; turns: Turn[] }> {
  server = createServer();
  const wss = new WebSocketServer({ server });
  let query = new URLSearchParams();
  wss.on('connection', (ws, req) => {
    query = new URL(req.url ?? '/', 'http://x').searchParams;
    ws.send(JSON.stringify({ type: 'Begin', id: 's1', expires_at: 9999999999 }));
    const turn = { type: 'Turn', turn_is_formatted: false, end_of_turn: true, transcript: 'hello', words: [] };
    ws.send(JSON.stringify({ ...turn, turn_order: 0, speaker_label: 'A' }));
    ws.send(JSON.stringify({ ...turn, turn_order: 1, speaker_label: 'UNKNOWN' }));
    ws.send(JSON.stringify({ ...turn, turn_order: 2 }));
    ws.on('message', (d, bin) => {
      if (!bin && (JSON.parse(d.toString()) as { type: string }).type === 'Terminate') {
        ws.send(JSON.stringify({ type: 'Termination', audio_duration_seconds: 0, session_duration_seconds: 0 }));
        ws.close(1000);
      }
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const turns: Turn[] = [];
  const client = new StreamingClient(
    { baseUrl: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, key: 'k', ...opts },
    { turn: (t) => turns.push(t) },
  );
  await client.start();
  await expect.poll(() => turns.length, { timeout: 20_000 }).toBe(3);
  await client.terminate();
  return { query, turns };
}

describe('StreamingClient speaker labels', () => {
  it('asks with speaker_labels and max_speakers and passes each speaker_label on', async () => {
    const { query, turns } = await run({ speakerLabels: true, maxSpeakers: 3 });
    expect(query.get('speaker_labels')).toBe('true');
    expect(query.get('max_speakers')).toBe('3');
    expect(turns.map((t) => t.speaker_label)).toEqual(['A', 'UNKNOWN', undefined]);
  });

  it('asks for nothing when not told to', async () => {
    const { query } = await run({});
    expect(query.has('speaker_labels')).toBe(false);
    expect(query.has('max_speakers')).toBe(false);
  });
});
