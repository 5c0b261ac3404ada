import type { Response } from 'supertest';
import { expect } from 'vitest';
import { useTestServer } from '../harness';

/**
 * The rate limit tests' two servers: `t` with the default limits, and `pub` whose public routes allow 3 per second
 * per IP, with `X-Forwarded-For` trusted so each test can be its own client.
 */
export function useRateLimitServers() {
  return { t: useTestServer(), pub: useTestServer({ SVC_RATE_LIMIT_PUBLIC: '3', TRUST_PROXY: 'true' }) };
}

export const count = (responses: Response[], status: number) => responses.filter((r) => r.status === status).length;
/**
 * Resolves early in a rate-limit window. Windows are the clock's seconds, so a burst sent in a second's last moments
 * would be split across two windows and counted twice over; one sent in its first half lands in one window.
 */
export async function windowStart(): Promise<void> {
  const into = Date.now() % 1000;
  if (into > 500) await new Promise((resolve) => setTimeout(resolve, 1000 - into + 5));
}

/**
 * `n` requests at once, all answered within one window: sent in the first half of a window, and sent again in the
 * next one when a slow machine answered the last of them in a later second than it sent the first (the counts
 * the tests expect hold for one window). After five such tries, the last answers.
 */
export async function burst(n: number, send: () => Promise<Response>): Promise<Response[]> {
  for (let attempt = 1; ; attempt++) {
    await windowStart();
    const sent = Math.floor(Date.now() / 1000);
    const responses = await Promise.all(Array.from({ length: n }, send));
    if (Math.floor(Date.now() / 1000) === sent || attempt === 5) return responses;
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
  }
}

export function expectRateLimitHeaders(res: Response, limit: number) {
  expect(res.headers['ratelimit-limit']).toBe(String(limit));
  const remaining = Number(res.headers['ratelimit-remaining']);
  expect(Number.isInteger(remaining)).toBe(true);
  expect(remaining).toBeGreaterThanOrEqual(0);
  expect(remaining).toBeLessThan(limit);
  const reset = Number(res.headers['ratelimit-reset']);
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(1);
}

export function expectLimited(res: Response, limit: number) {
  expect(res.status).toBe(429);
  expect(res.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
  expect(res.body.error.request_id).toBe(res.headers['request-id']);
  expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  expect(res.headers['ratelimit-limit']).toBe(String(limit));
  expect(res.headers['ratelimit-remaining']).toBe('0');
}
