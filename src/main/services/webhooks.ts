/**
 * The webhook receiver for the local engine (API.md §7): 127.0.0.1 only, a
 * random path and a random auth header per launch. A delivery only wakes the
 * job's poll loop early; the transcript itself is always read with GET, so a
 * forged or lost webhook changes nothing but timing.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookBodyLooseSchema } from '../../shared/api/transcript';

export class WebhookReceiver {
  private server: Server | null = null;
  private readonly path = `/hooks/${randomBytes(16).toString('hex')}`;
  readonly headerName = 'X-Verbatim-Webhook';
  private readonly headerValue = randomBytes(24).toString('base64url');
  private base = '';
  private readonly waiters = new Map<string, Set<() => void>>();
  received = 0;

  async start(): Promise<void> {
    if (this.server) return;
    const server = createServer((req, res) => {
      // URL.parse, not new URL: a target such as `//a:b/` must answer 400, not throw out of the listener.
      const url = URL.parse(req.url ?? '/', 'http://127.0.0.1');
      if (!url) {
        res.writeHead(400).end();
        req.resume();
        return;
      }
      const given = Buffer.from(String(req.headers[this.headerName.toLowerCase()] ?? ''));
      const want = Buffer.from(this.headerValue);
      if (req.method !== 'POST' || url.pathname !== this.path || given.length !== want.length || !timingSafeEqual(given, want)) {
        res.writeHead(404).end();
        req.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      // A sender that hangs up mid-body: nothing to do (polling still finds the result), and no error may escape.
      req.on('error', () => undefined);
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size < 64 * 1024) chunks.push(c);
      });
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        try {
          const body = WebhookBodyLooseSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          if (body.success) this.notify(body.data.transcript_id);
        } catch {
          // Not JSON: ignore; polling still finds the result.
        }
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${this.path}`;
  }

  /** Parameters to add to a create request so deliveries come here. */
  params(jobId: string): Record<string, string> {
    return {
      webhook_url: `${this.base}?job=${encodeURIComponent(jobId)}`,
      webhook_auth_header_name: this.headerName,
      webhook_auth_header_value: this.headerValue,
    };
  }

  /** Resolves when a delivery for `remoteId` arrives (or never; callers race it with a timer). */
  wait(remoteId: string, signal?: AbortSignal): { promise: Promise<void>; cancel: () => void } {
    let done: () => void = () => undefined;
    const promise = new Promise<void>((resolve) => (done = resolve));
    const set = this.waiters.get(remoteId) ?? new Set();
    set.add(done);
    this.waiters.set(remoteId, set);
    const cancel = () => {
      set.delete(done);
      if (set.size === 0) this.waiters.delete(remoteId);
      done();
    };
    signal?.addEventListener('abort', cancel, { once: true });
    return { promise, cancel };
  }

  private notify(remoteId: string): void {
    this.received++;
    const set = this.waiters.get(remoteId);
    if (!set) return;
    this.waiters.delete(remoteId);
    for (const w of set) w();
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    await new Promise<void>((r) => {
      s.close(() => r());
      s.closeAllConnections();
    });
  }
}
