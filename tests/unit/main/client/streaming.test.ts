import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { StreamingClient, type Turn } from '../../../../src/main/services/client/streaming';

/** A real WebSocket server speaking the v3 protocol's shape: Begin, a Turn per 4 frames, Termination. */
async function startServer(opts: { key: string; dropAfterFrames?: number }) {
  const server: Server = createServer();
  const wss = new WebSocketServer({ noServer: true });
  const sessions: { frames: number[]; socket: WebSocket }[] = [];
  let dropped = false;
  server.on('upgrade', (req, socket, head) => {
    if (req.headers.authorization !== opts.key) {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const s = { frames: [] as number[], socket: ws };
      sessions.push(s);
      ws.send(JSON.stringify({ type: 'Begin', id: `s${sessions.length}`, expires_at: 9999999999 }));
      ws.on('message', (data, isBinary) => {
        if (isBinary) {
          s.frames.push((data as Buffer).length);
          const n = s.frames.length;
          if (opts.dropAfterFrames && !dropped && n === opts.dropAfterFrames) {
            dropped = true;
            ws.terminate();
            return;
          }
          if (n % 4 === 0) {
            const start = (n - 4) * 50;
            ws.send(
              JSON.stringify({
                type: 'Turn',
                turn_order: n / 4 - 1,
                turn_is_formatted: false,
                end_of_turn: true,
                transcript: `turn ${n / 4}`,
                end_of_turn_confidence: 0.9,
                words: [{ text: 'w', start, end: start + 200, confidence: 0.9, word_is_final: true }],
              }),
            );
          }
          return;
        }
        const m = JSON.parse(data.toString()) as { type: string };
        if (m.type === 'Terminate') {
          ws.send(JSON.stringify({ type: 'Termination', audio_duration_seconds: (s.frames.length * 50) / 1000, session_duration_seconds: 1 }));
          ws.close(1000);
        }
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sessions,
    async close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

let srv: Awaited<ReturnType<typeof startServer>> | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const pcm = (ms: number) => Buffer.alloc((16000 * 2 * ms) / 1000, 1);
const until = async (p: () => boolean) => {
  for (let i = 0; i < 200 && !p(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('streaming client', () => {
  it('sends 50 ms frames, surfaces Turns and terminates cleanly', async () => {
    srv = await startServer({ key: 'k' });
    const turns: Turn[] = [];
    let closed: number | null = null;
    const c = new StreamingClient({ baseUrl: srv.url, key: 'k' }, { turn: (t) => turns.push(t), closed: (i) => (closed = i.audioSeconds) });
    await c.start();
    c.sendAudio(pcm(130));
    c.sendAudio(pcm(270));
    await until(() => turns.length === 2);
    expect(srv.sessions[0]!.frames).toEqual(Array(8).fill(1600));
    expect(turns.map((t) => t.transcript)).toEqual(['turn 1', 'turn 2']);
    await c.terminate();
    expect(closed).toBe(0.4);
  });

  it('never misses a Begin sent at once with the upgrade answer', async () => {
    srv = await startServer({ key: 'k' });
    for (let i = 0; i < 20; i++) {
      const begins: number[] = [];
      const c = new StreamingClient({ baseUrl: srv.url, key: 'k' }, { begin: (b) => begins.push(b.session) });
      await c.start();
      await until(() => begins.length === 1);
      expect(begins).toEqual([0]);
      await c.terminate();
    }
  });

  it('refuses a wrong key with invalid_key', async () => {
    srv = await startServer({ key: 'k' });
    await expect(new StreamingClient({ baseUrl: srv.url, key: 'bad' }).start()).rejects.toMatchObject({ code: 'invalid_key' });
  });

  it('reconnects a dropped socket with a new session and keeps word times continuous', async () => {
    srv = await startServer({ key: 'k', dropAfterFrames: 4 });
    const turns: Turn[] = [];
    const reconnected: { session: number; gapMs: number }[] = [];
    const c = new StreamingClient({ baseUrl: srv.url, key: 'k' }, { turn: (t) => turns.push(t), reconnected: (r) => reconnected.push(r) });
    await c.start();
    c.sendAudio(pcm(200));
    await until(() => reconnected.length === 1);
    expect(srv.sessions).toHaveLength(2);
    c.sendAudio(pcm(200));
    await until(() => turns.length === 1);
    const t = turns[0]!;
    expect(t.session).toBe(1);
    // Word times continue after the first session's 200 ms plus the gap.
    expect(t.words[0]!.start).toBe(200 + reconnected[0]!.gapMs);
    await c.terminate();
  });
});
