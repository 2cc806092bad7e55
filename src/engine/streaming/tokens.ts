/** Single-use temporary streaming tokens (`GET /v3/token`), kept in memory. */
import { randomBytes } from 'node:crypto';

interface Grant {
  expiresAt: number;
  maxSessionSeconds: number | null;
}

export class TokenStore {
  private grants = new Map<string, Grant>();

  mint(expiresInSeconds: number, maxSessionSeconds: number | null, now = Date.now()): string {
    this.prune(now);
    const token = randomBytes(24).toString('base64url');
    this.grants.set(token, { expiresAt: now + expiresInSeconds * 1000, maxSessionSeconds });
    return token;
  }

  /** Uses a token up. Returns its grant, or the reason it cannot be used. */
  consume(token: string, now = Date.now()): { ok: true; maxSessionSeconds: number | null } | { ok: false; reason: string } {
    const g = this.grants.get(token);
    if (!g) return { ok: false, reason: 'the temporary token is unknown or was already used; request a new one from /v3/token' };
    this.grants.delete(token);
    if (g.expiresAt <= now) return { ok: false, reason: 'the temporary token has expired; request a new one from /v3/token' };
    return { ok: true, maxSessionSeconds: g.maxSessionSeconds };
  }

  private prune(now: number): void {
    for (const [t, g] of this.grants) if (g.expiresAt <= now) this.grants.delete(t);
  }
}
