/**
 * Webhook delivery by the rules of API.md §7: POST JSON to the client's URL
 * (query kept) with its auth header on every attempt; a 2xx within the
 * timeout is delivered; a 4xx stops at once; anything else is retried, at
 * most `maxAttempts` in total, `intervalMs` apart. Deliveries are rows in the
 * store, so a restart resumes them. Timings and the clock are injectable.
 */
import type { WebhookBody } from '../shared/api/transcript';
import type { Logger } from './logger';
import type { Store, WebhookRow } from './store';

export interface WebhookOptions {
  /** An answer must arrive within this (default 10 s). */
  timeoutMs: number;
  /** Wait between attempts (default 10 s). */
  intervalMs: number;
  /** Attempts in total (default 10). */
  maxAttempts: number;
  /** The clock (ms). */
  now: () => number;
  /** Waits `ms` on the clock. */
  sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = {
  timeoutMs: 10_000,
  intervalMs: 10_000,
  maxAttempts: 10,
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms).unref()),
};

export interface DeliveryOutcome {
  delivered: boolean;
  attempts: number;
  lastStatus: number | null;
}

export class WebhookSender {
  readonly o: WebhookOptions;
  private stopped = false;
  private running = new Map<number, Promise<DeliveryOutcome>>();

  constructor(
    private readonly ctx: { store: Store; logger: Logger },
    opts: Partial<WebhookOptions> = {},
  ) {
    this.o = { ...DEFAULT_WEBHOOK_OPTIONS, ...opts };
  }

  /** Resumes deliveries left by an earlier run. */
  start(): void {
    for (const row of this.ctx.store.pendingWebhooks()) this.spawn(row);
  }

  stop(): void {
    this.stopped = true;
  }

  /** Sends a final-status notification for a transcript, if it has a webhook. */
  notify(transcriptId: string, body: WebhookBody): Promise<DeliveryOutcome> | null {
    const t = this.ctx.store.getTranscript(transcriptId);
    const url = t?.params.webhook_url;
    if (!t || !url || t.deleted) return null;
    const text = JSON.stringify(body);
    const id = this.ctx.store.enqueueWebhook(transcriptId, url, text, this.o.now());
    return this.spawn({ id, transcriptId, url, body: text, attempts: 0, nextAt: this.o.now() });
  }

  /** Resolves when every delivery in flight has finished (tests). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running.values()]);
  }

  private spawn(row: WebhookRow): Promise<DeliveryOutcome> {
    const p = this.deliver(row).finally(() => this.running.delete(row.id));
    this.running.set(row.id, p);
    return p;
  }

  private async attempt(row: WebhookRow): Promise<number | null> {
    const t = this.ctx.store.getTranscript(row.transcriptId);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'verbatim-engine' };
    if (t?.params.webhook_auth_header_name && t.webhookAuthValue !== null) headers[t.params.webhook_auth_header_name] = t.webhookAuthValue;
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), this.o.timeoutMs);
    try {
      const res = await fetch(row.url, { method: 'POST', headers, body: row.body, signal: ac.signal, redirect: 'manual' });
      await res.body?.cancel().catch(() => undefined);
      return res.status;
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  private async deliver(row: WebhookRow): Promise<DeliveryOutcome> {
    let attempts = row.attempts;
    let lastStatus: number | null = null;
    const wait = row.nextAt - this.o.now();
    if (wait > 0) await this.o.sleep(wait);
    while (!this.stopped && attempts < this.o.maxAttempts) {
      attempts += 1;
      const status = await this.attempt(row);
      lastStatus = status;
      if (this.stopped) break;
      this.ctx.store.setWebhookStatus(row.transcriptId, status);
      if (status !== null && status >= 200 && status < 300) {
        this.ctx.store.removeWebhook(row.id);
        return { delivered: true, attempts, lastStatus };
      }
      if ((status !== null && status >= 400 && status < 500) || attempts >= this.o.maxAttempts) {
        this.ctx.logger.warn(`webhook for ${row.transcriptId} failed after ${attempts} attempt(s) (last answer: ${status ?? 'none'})`);
        this.ctx.store.removeWebhook(row.id);
        return { delivered: false, attempts, lastStatus };
      }
      this.ctx.store.updateWebhook(row.id, attempts, this.o.now() + this.o.intervalMs);
      await this.o.sleep(this.o.intervalMs);
    }
    return { delivered: false, attempts, lastStatus };
  }
}
