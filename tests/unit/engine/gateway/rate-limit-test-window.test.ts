/**
 * The limiter's test window (VERBATIM_TEST_RATE_RETRY_MS, set only by the e2e chat test's host): requests count in
 * one long window, and a refusal ends it a few seconds later, so its Retry-After is short and then requests pass again.
 */
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../../src/engine/gateway/rate-limit';

describe('rate limiter with a test window', () => {
  it('counts in the long window, then a refusal says to retry after the short wait, and passes after it', () => {
    let now = 1_000_000;
    const rl = new RateLimiter(
      () => 2,
      3_600_000,
      () => now,
      15_000,
    );
    expect(rl.take('m', 'llm-gateway').allowed).toBe(true);
    now += 120_000; // two minutes: a real one-minute window would have reset here
    expect(rl.take('m', 'llm-gateway').allowed).toBe(true);
    const refused = rl.take('m', 'llm-gateway');
    expect(refused.allowed).toBe(false);
    expect(refused.headers['Retry-After']).toBe('15');
    expect(refused.headers['X-RateLimit-Remaining']).toBe('0');
    now += 14_000;
    expect(rl.take('m', 'llm-gateway').allowed).toBe(false);
    now += 1_000;
    const after = rl.take('m', 'llm-gateway');
    expect(after.allowed).toBe(true);
    expect(after.headers['X-RateLimit-Remaining']).toBe('1');
  });
});
