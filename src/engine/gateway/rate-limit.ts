/**
 * Per-model request limits in fixed 60-second windows, with the five
 * X-RateLimit-* headers of API.md §9 on every limited answer.
 */

export type RateService = 'llm-gateway' | 'speech-understanding';

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  /** Seconds until the window resets (Retry-After when refused). */
  resetSeconds: number;
}

export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limitFor: (model: string, service: RateService) => number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
    /** Test only (VERBATIM_TEST_RATE_RETRY_MS, engine/index.ts): a refusal ends its window this many ms later, so its Retry-After is short. */
    private readonly refusedResetMs?: number,
  ) {}

  /** Counts `n` requests (upstream calls) for `model` under `service` and says whether they may proceed (all or none). */
  take(model: string, service: RateService, n = 1): RateDecision {
    const limit = this.limitFor(model, service);
    const key = `${service}\u0000${model}`;
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      w = { start: t, count: 0 };
      this.windows.set(key, w);
    }
    const allowed = w.count + n <= limit;
    if (allowed) w.count += n;
    else if (this.refusedResetMs !== undefined) w.start = Math.min(w.start, t + this.refusedResetMs - this.windowMs);
    const resetSeconds = Math.max(1, Math.ceil((w.start + this.windowMs - t) / 1000));
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - w.count)),
      'X-RateLimit-Reset': String(resetSeconds),
      'X-RateLimit-Model': model,
      'X-RateLimit-Service': service,
    };
    if (!allowed) headers['Retry-After'] = String(resetSeconds);
    return { allowed, headers, resetSeconds };
  }
}
