/**
 * A test's client of host mode's bridge: opens `/bridge` with the launch
 * token, answers each `call` with its reply's output (or throws the typed
 * error the router sent), and collects the events main pushes.
 */
import WebSocket from 'ws';

type Reply = { id?: number; output?: unknown; error?: { code: string; message: string } };

export interface BridgeClient {
  ws: WebSocket;
  call<T = Record<string, unknown>>(channel: string, input?: unknown): Promise<T>;
  /** Events pushed by main, in order. */
  events: { event: string; payload: Record<string, unknown> }[];
  close(): void;
}

export async function openBridge(port: number, token: string): Promise<BridgeClient> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge?token=${token}`);
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
  let next = 1;
  const pending = new Map<number, (m: Reply) => void>();
  const events: BridgeClient['events'] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString()) as Reply & { event?: string; payload?: Record<string, unknown> };
    if (typeof m.id === 'number') pending.get(m.id)?.(m);
    else if (typeof m.event === 'string') events.push({ event: m.event, payload: m.payload ?? {} });
  });
  return {
    ws,
    events,
    async call<T>(channel: string, input?: unknown): Promise<T> {
      const id = next++;
      const reply = await new Promise<Reply>((r) => {
        pending.set(id, r);
        ws.send(JSON.stringify({ id, channel, input }));
      });
      pending.delete(id);
      if (reply.error) throw Object.assign(new Error(reply.error.message), reply.error);
      return reply.output as T;
    },
    close: () => ws.close(),
  };
}
