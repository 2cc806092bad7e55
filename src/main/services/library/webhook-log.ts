/** The user's webhook per transcript (cloud and custom services): sent with, what its server answered, and whether that is settled. */
import { AppError } from '../../../shared/errors';
import type { ServiceRegion } from '../../../shared/jobs';
import type { WebhookStatus } from '../../../shared/library';
import { recordingOf, touch, type Database, type LibraryContext } from './db';

export interface RemoteRef {
  transcriptId: string;
  region: ServiceRegion;
  baseUrl: string | null;
  remoteId: string | null;
  completedAt: string | null;
  webhookUrl: string | null;
  webhookSettled: boolean;
}

export interface WebhookColumns {
  webhook_url: string | null;
  webhook_status_code: number | null;
  webhook_checked_at: string | null;
  webhook_settled: number;
}

export function toWebhookStatus(t: WebhookColumns): WebhookStatus | null {
  if (!t.webhook_url) return null;
  const code = t.webhook_status_code;
  const ok = code !== null && code >= 200 && code < 300;
  const refused = code !== null && code >= 400 && code < 500;
  // No code yet and none after a timed-out attempt look the same on the wire: both are pending.
  const state = ok ? 'delivered' : refused || t.webhook_settled ? 'failed' : code === null ? 'pending' : 'retrying';
  return { url: withoutQuery(t.webhook_url), state, statusCode: code, checkedAt: t.webhook_checked_at };
}

function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.split('?')[0] ?? url;
  }
}

export class WebhookLog {
  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {}

  /** The transcript was submitted with the user's webhook (cloud and custom services). */
  begin(transcriptId: string, url: string): void {
    this.db
      .prepare(`UPDATE transcripts SET webhook_url = ?, webhook_status_code = NULL, webhook_checked_at = NULL, webhook_settled = 0 WHERE id = ?`)
      .run(url, transcriptId);
  }

  /**
   * What the service says its last webhook delivery got (`webhook_status_code`).
   * `settled`: nothing more will change (delivered, refused, or retries over).
   * Returns true when the stored state changed.
   */
  recordCheck(transcriptId: string, statusCode: number | null, settled: boolean): boolean {
    const before = this.db.prepare(`SELECT webhook_status_code AS code, webhook_settled AS settled FROM transcripts WHERE id = ?`).get(transcriptId) as
      { code: number | null; settled: number } | undefined;
    if (!before) return false;
    this.db
      .prepare(`UPDATE transcripts SET webhook_status_code = ?, webhook_settled = ?, webhook_checked_at = ? WHERE id = ?`)
      .run(statusCode, settled ? 1 : 0, new Date().toISOString(), transcriptId);
    const changed = before.code !== statusCode || before.settled !== (settled ? 1 : 0);
    if (changed) {
      const recordingId = recordingOf(this.db, transcriptId);
      touch(this.db, recordingId);
      this.ctx.changed([recordingId], 'updated');
    }
    return changed;
  }

  /** Recordings whose completed transcript's webhook outcome is not settled yet (to follow after a restart). */
  unsettled(): string[] {
    const rows = this.db
      .prepare(
        `SELECT recording_id AS id FROM transcripts WHERE webhook_url IS NOT NULL AND webhook_settled = 0 AND status = 'completed' AND remote_id IS NOT NULL`,
      )
      .all() as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Where to ask about a recording's latest transcript (its region, service address, remote id) and its webhook state. */
  ref(recordingId: string): RemoteRef {
    const row = this.db
      .prepare(
        `SELECT id AS transcriptId, region, base_url AS baseUrl, remote_id AS remoteId, completed_at AS completedAt,
                webhook_url AS webhookUrl, webhook_settled AS webhookSettled
         FROM transcripts WHERE recording_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`,
      )
      .get(recordingId) as (Omit<RemoteRef, 'webhookSettled'> & { webhookSettled: number }) | undefined;
    if (!row) throw new AppError('not_found', 'This recording is no longer in the library.');
    return { ...row, webhookSettled: row.webhookSettled === 1 };
  }

  /** The webhook state of a recording's latest transcript, without reading its words. */
  status(recordingId: string): WebhookStatus | null {
    const row = this.db
      .prepare(
        `SELECT webhook_url, webhook_status_code, webhook_checked_at, webhook_settled FROM transcripts WHERE recording_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`,
      )
      .get(recordingId) as WebhookColumns | undefined;
    return row ? toWebhookStatus(row) : null;
  }
}
