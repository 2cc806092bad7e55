/**
 * Speech-understanding results saved with a transcript (summary, action
 * items, decisions, translations by language, custom formatting): one row
 * per kind and variant, replaced when the action runs again.
 */
import type { Database } from 'better-sqlite3';
import { insightResultSchema, type Insight, type InsightKind, type InsightResult } from '../../../shared/chat/schema';

interface InsightRow {
  kind: string;
  variant: string;
  model: string | null;
  result: string;
  created_at: string;
}

export class InsightStore {
  constructor(
    private readonly db: Database,
    _ctx?: unknown,
  ) {}

  /** Results for a transcript, in the order the actions are offered. */
  list(transcriptId: string): Insight[] {
    const order: InsightKind[] = ['summary', 'action_items', 'decisions', 'translation', 'custom_formatting'];
    const rows = this.db.prepare(`SELECT kind, variant, model, result, created_at FROM insights WHERE transcript_id = ?`).all(transcriptId) as InsightRow[];
    return rows
      .flatMap((r) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(r.result);
        } catch {
          return [];
        }
        const result = insightResultSchema.safeParse(parsed);
        return result.success ? [{ kind: result.data.kind, variant: r.variant, model: r.model, createdAt: r.created_at, result: result.data }] : [];
      })
      .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.variant.localeCompare(b.variant));
  }

  save(transcriptId: string, variant: string, model: string | null, result: InsightResult): Insight {
    const createdAt = new Date().toISOString();
    this.db
      .prepare(`INSERT OR REPLACE INTO insights (transcript_id, kind, variant, model, result, created_at) VALUES (?, ?, ?, ?, ?, ?)`)
      .run(transcriptId, result.kind, variant, model, JSON.stringify(result), createdAt);
    return { kind: result.kind, variant, model, createdAt, result };
  }

  remove(transcriptId: string, kind: InsightKind, variant: string): void {
    this.db.prepare(`DELETE FROM insights WHERE transcript_id = ? AND kind = ? AND variant = ?`).run(transcriptId, kind, variant);
  }
}
