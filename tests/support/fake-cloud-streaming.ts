/**
 * The cloud's live side for the app's tests: a real WebSocket server on 127.0.0.1 speaking /v3/ws as the
 * official SDK's types give it (Begin, Turn with speaker_label, SpeakerRevision, Termination). It records what
 * each session asked for (its query) and plays a script: finished turns as soon as the session opens, and the
 * SpeakerRevision the script names mid-stream or on Terminate (before Termination, as the service sends its last one).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

export interface FakeStreamingScript {
  /** Finished turns, in order: their text and speaker label. */
  turns: { text: string; speaker: string }[];
  /** Earlier turns relabelled, sent on Terminate (only the turns whose label changed, as the service does). */
  revision?: { turn_order: number; speaker_label: string }[];
  /** Send the revision mid-stream instead, once this many audio frames have arrived (speaker_labels_revision_interval_ms). */
  reviseAfterFrames?: number;
}

export interface FakeStreaming {
  url: string;
  /** Each session's query, in the order they opened. */
  queries: URLSearchParams[];
  /** Each session's authorization header. */
  keys: (string | null)[];
  close(): Promise<void>;
}

/** One second a word-run: turn i spans [i s, i s + 800 ms]. */
function words(text: string, i: number, speaker?: string) {
  const list = text.split(' ');
  return list.map((w, k) => ({
    text: w,
    start: i * 1000 + k * 100,
    end: i * 1000 + k * 100 + 90,
    confidence: 0.9,
    word_is_final: true,
    ...(speaker ? { speaker } : {}),
  }));
}

export async function startFakeStreaming(script: FakeStreamingScript): Promise<FakeStreaming> {
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ server, path: '/v3/ws' });
  const queries: URLSearchParams[] = [];
  const keys: (string | null)[] = [];
  wss.on('connection', (ws, req) => {
    queries.push(new URL(req.url ?? '/', 'http://x').searchParams);
    keys.push(req.headers.authorization ?? null);
    ws.send(JSON.stringify({ type: 'Begin', id: `s${queries.length}`, expires_at: Math.floor(Date.now() / 1000) + 3600 }));
    script.turns.forEach((t, i) =>
      ws.send(
        JSON.stringify({
          type: 'Turn',
          turn_order: i,
          turn_is_formatted: true,
          end_of_turn: true,
          transcript: t.text,
          utterance: t.text,
          end_of_turn_confidence: 0.9,
          words: words(t.text, i),
          speaker_label: t.speaker,
        }),
      ),
    );
    let frames = 0;
    let revised = false;
    const revise = () => {
      if (revised || !script.revision?.length) return;
      revised = true;
      ws.send(
        JSON.stringify({
          type: 'SpeakerRevision',
          revisions: script.revision.map((r) => ({
            turn_order: r.turn_order,
            speaker_label: r.speaker_label,
            words: words(script.turns[r.turn_order]!.text, r.turn_order, r.speaker_label),
          })),
        }),
      );
    };
    ws.on('message', (data, binary) => {
      if (binary) {
        if (script.reviseAfterFrames !== undefined && ++frames >= script.reviseAfterFrames) revise();
        return;
      }
      const msg = JSON.parse(data.toString()) as { type: string };
      if (msg.type !== 'Terminate') return;
      revise();
      ws.send(JSON.stringify({ type: 'Termination', audio_duration_seconds: 3, session_duration_seconds: 3 }));
      ws.close(1000);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    queries,
    keys,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
