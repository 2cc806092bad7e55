/**
 * Host mode's bridge: the IPC contract over one WebSocket at /bridge. The
 * upgrade is refused without the launch token, from another origin or a
 * non-loopback Host, and once the services failed to start; otherwise the socket
 * opens at once, even while the services still load, and its requests are
 * answered once they are up (the page's first calls are on their way meanwhile:
 * issue 52, cold start). Each text message is a request for the router and each
 * binary one a live-captions audio frame, and main's events go to every socket.
 * Nothing a socket sends may throw out of a listener.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type * as BridgeRequest from '../../shared/bridge-request';
import type { BridgeResponse } from '../../shared/ipc';
import type { Core } from '../core';
import { SubtitleDocJson } from '../ipc/open-json';
import type { ServicesUp } from './services';
import { isLoopbackHost, parseTarget, tokenMatches } from './token-routes';

/**
 * The largest bridge message accepted. A subtitle file's text crosses inline
 * only up to 2,000,000 characters (subtitles.importNew, subtitles.run's
 * replaceFrom; a bigger file is POSTed to /upload and named by its id); an
 * edit is a command of a few hundred bytes, and audio frames for live
 * captions are 1,600–32,000 bytes. Anything larger closes that socket with
 * 1009 and leaves host mode serving.
 */
export const BRIDGE_MAX_PAYLOAD = 16 * 1024 * 1024;

export class HostBridge {
  private readonly sockets = new Set<WebSocket>();
  private wss: Promise<WebSocketServer> | null = null;
  /** Whether the services failed to start (or host mode is closing): the upgrade is then refused with 503. */
  private down = false;
  private core: Core | null = null;
  private decode: typeof BridgeRequest.decodeBridgeRequest | null = null;
  private unsubscribe = (): void => undefined;

  /**
   * `origins`: the page's own origins (the address printed, and its localhost and [::1] spellings).
   * `ready`: starts the services if nothing has, and answers whether they are up.
   */
  constructor(
    private readonly token: string,
    private readonly origins: readonly string[],
    private readonly ready: () => Promise<boolean>,
  ) {}

  /** The services are up: the decoder, and main's events to every socket. */
  start({ core, decodeBridgeRequest }: ServicesUp): void {
    this.core = core;
    this.decode = decodeBridgeRequest;
    this.unsubscribe = core.router.subscribe((event, payload) => {
      const frame = JSON.stringify({ event, payload } satisfies BridgeResponse);
      for (const s of this.sockets) if (s.readyState === s.OPEN) s.send(frame);
    });
  }

  /** An HTTP upgrade: to /bridge with the token, from the page's origin, unless the services failed; anything else is refused on the raw socket. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // The socket is ours from here: an error on it (a reset mid-handshake) must not reach the process.
    socket.on('error', () => socket.destroy());
    const reject = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (!isLoopbackHost(req.headers.host)) return reject(421, 'Misdirected Request');
    const url = parseTarget(req.url);
    if (!url) return reject(400, 'Bad Request');
    if (url.pathname !== '/bridge') return reject(404, 'Not Found');
    if (!tokenMatches(this.token, url.searchParams.get('token'))) return reject(401, 'Unauthorized');
    const origin = req.headers.origin;
    if (origin !== undefined && !this.origins.includes(origin)) return reject(403, 'Forbidden');
    if (this.down) return reject(503, 'Service Unavailable');
    // Asking for the services starts them if nothing has; the socket opens without waiting for them.
    void this.ready().then((ok) => {
      if (!ok) this.fail();
    });
    this.server().then(
      (wss) => {
        if (this.down) return reject(503, 'Service Unavailable');
        wss.handleUpgrade(req, socket, head, (ws) => this.attach(ws));
      },
      () => reject(503, 'Service Unavailable'),
    );
  }

  close(): void {
    this.down = true;
    this.unsubscribe();
    for (const ws of this.sockets) ws.close(1001, 'Verbatim is shutting down');
    void this.wss?.then((wss) => wss.close()).catch(() => undefined);
  }

  /** The socket server, made once (its module loads on first need; host/cli.ts loads it before the services). */
  private server(): Promise<WebSocketServer> {
    this.wss ??= import('ws').then((ws) => {
      const wss = new ws.WebSocketServer({ noServer: true, maxPayload: BRIDGE_MAX_PAYLOAD });
      wss.on('error', (err) => console.error('host: bridge server error', err));
      return wss;
    });
    return this.wss;
  }

  /** The services failed to start: the sockets opened meanwhile are closed with the reason, later upgrades refused. */
  private fail(): void {
    if (this.down) return;
    this.down = true;
    for (const ws of this.sockets) ws.close(1011, 'Verbatim could not start its services');
  }

  private attach(ws: WebSocket): void {
    // First thing: ws reports oversized or malformed frames as 'error' (then closes
    // with 1009/1002); with no listener that error would end host mode.
    ws.on('error', () => ws.terminate());
    this.sockets.add(ws);
    ws.on('close', () => this.sockets.delete(ws));
    ws.on('message', (data, isBinary) => {
      // Binary messages are live captions' audio frames (ipc.ts binaryMessages); the service checks and never throws.
      if (isBinary) return this.core?.captions.frame(toBytes(data));
      this.onMessage(ws, toBytes(data)).catch((err: unknown) => {
        console.error('host: bridge message failed', err);
        if (ws.readyState === ws.OPEN) ws.close(1011, 'Internal error');
      });
    });
  }

  private async onMessage(ws: WebSocket, bytes: Uint8Array): Promise<void> {
    // A request sent before the services were up waits for them (in the order sent: each waits on the same start).
    if (!this.core && !(await this.ready())) return;
    const core = this.core;
    const decode = this.decode;
    if (!core || !decode) return;
    // A turn of the event loop between the steps a subtitle file's 8 MB take (ws unmasks them in the turn that delivers
    // the frame, then UTF-8, then JSON): in one turn they held the loop past its 100 ms bound.
    await nextTurn();
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    if (text.length > 65_536) await nextTurn();
    const req = decode(text);
    if (!req.ok) {
      ws.close(1003, req.reason);
      return;
    }
    const { id, channel, input } = req;
    const reply = await core.router.dispatch(channel, input, { sender: { kind: 'host', tokenValid: true }, jsonText: true });
    if (ws.readyState !== ws.OPEN) return;
    if (reply.ok && reply.output instanceof SubtitleDocJson) {
      // subtitles.open as the worker wrote and checked it (ipc/open-json.ts): one text message in three frames, sent in one turn so nothing comes between them.
      ws.send(`{"id":${id},"output":`, { binary: false, fin: false });
      ws.send(reply.output.bytes, { binary: false, fin: false });
      ws.send('}', { binary: false, fin: true });
      return;
    }
    const frame: BridgeResponse = reply.ok ? { id, output: reply.output } : { id, error: reply.error };
    ws.send(JSON.stringify(frame));
  }
}

const nextTurn = () => new Promise((r) => setImmediate(r));

function toBytes(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}
