import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@svc/contract';
import type { Principal, ResolvedKey, ResolvedTenant } from '../../src/core/principal';
import { bearer } from '../harness';
import { burst, count, expectLimited, expectRateLimitHeaders, useRateLimitServers } from './rate-limit-fixtures';

const { t, pub } = useRateLimitServers();

describe('headers', () => {
  it('are on successes and errors of key-authenticated routes, with Retry-After only on 429', async () => {
    const { keys } = await t.tenant();
    const ok = await t.http().get('/v1/keys').set(bearer(keys.test.secret));
    expect(ok.status).toBe(200);
    expectRateLimitHeaders(ok, LIMITS.rateLimits.secret);
    expect(ok.headers['ratelimit-remaining']).toBe(String(LIMITS.rateLimits.secret - 1));
    expect(ok.headers['retry-after']).toBeUndefined();

    // An error draws from the bucket too. Windows are one second long: a pair of requests that straddles a
    // window's end sees the count start again, so such a pair is sent again.
    let drawn = false;
    for (let attempt = 0; attempt < 3 && !drawn; attempt++) {
      const before = await t.http().get('/v1/keys').set(bearer(keys.test.secret));
      const notFound = await t.http().get('/v1/keys/key_nope').set(bearer(keys.test.secret));
      expect(notFound.status).toBe(404);
      expectRateLimitHeaders(notFound, LIMITS.rateLimits.secret);
      expect(notFound.headers['retry-after']).toBeUndefined();
      drawn = Number(notFound.headers['ratelimit-remaining']) < Number(before.headers['ratelimit-remaining']);
    }
    expect(drawn).toBe(true);

    const invalid = await t.http().post('/v1/keys').set(bearer(keys.test.secret)).send({ type: 'nope' });
    expect(invalid.status).toBe(422);
    expectRateLimitHeaders(invalid, LIMITS.rateLimits.secret);
  });

  it('are on public routes, failed authentication and operator routes', async () => {
    const status = await t.http().get('/v1/status');
    expect(status.status).toBe(200);
    expectRateLimitHeaders(status, t.ctx.config.SVC_RATE_LIMIT_PUBLIC);

    const buildInfo = await t.http().get('/build-info');
    expectRateLimitHeaders(buildInfo, t.ctx.config.SVC_RATE_LIMIT_PUBLIC);

    const unauthenticated = await t.http().get('/v1/keys');
    expect(unauthenticated.status).toBe(401);
    expectRateLimitHeaders(unauthenticated, t.ctx.config.SVC_RATE_LIMIT_PUBLIC);

    const operator = await t.http().get('/v1/operator/tenants').set(t.operator);
    expect(operator.status).toBe(200);
    expectRateLimitHeaders(operator, 1000);
  });

  it('are on idempotent replays, which count against the limit', async () => {
    const { keys } = await t.tenant();
    const send = (key: string) => t.http().post('/v1/keys').set(bearer(keys.test.secret)).set('Idempotency-Key', key).send({ type: 'publishable' });
    // Windows are the clock's seconds: a pair that straddles a second's boundary is sent again with a new key.
    for (let attempt = 0; attempt < 10; attempt++) {
      const second = Math.floor(Date.now() / 1000);
      const first = await send(`rl-replay-${attempt}`);
      const replay = await send(`rl-replay-${attempt}`);
      if (Math.floor(Date.now() / 1000) !== second) continue;
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expectRateLimitHeaders(replay, LIMITS.rateLimits.secret);
      expect(Number(replay.headers['ratelimit-remaining'])).toBeLessThan(Number(first.headers['ratelimit-remaining']));
      return;
    }
    throw new Error('no pair of requests fell within one second');
  });
});

describe('tenant limits', () => {
  it('answers a burst beyond the limit with 429 rate_limited and Retry-After', async () => {
    const created = await t.http().post('/v1/operator/tenants').set(t.operator).send({ name: 'Small plan', rate_limits: { secret: 5 } });
    expect(created.status).toBe(201);
    const secret = created.body.data.keys.test.secret as string;

    const responses = await burst(9, () => t.http().get('/v1/keys').set(bearer(secret)));
    expect(count(responses, 200) + count(responses, 429)).toBe(9);
    expect(count(responses, 200)).toBeGreaterThanOrEqual(1);
    expect(count(responses, 200)).toBeLessThanOrEqual(5);
    for (const r of responses) {
      if (r.status === 429) expectLimited(r, 5);
      else {
        expectRateLimitHeaders(r, 5);
        expect(r.headers['retry-after']).toBeUndefined();
      }
    }
    // Each admitted request took its own token.
    const remaining = responses.filter((r) => r.status === 200).map((r) => r.headers['ratelimit-remaining']);
    expect(new Set(remaining).size).toBe(remaining.length);
  });

  it('admits a burst well within the limit in full, however many requests reserve at once', async () => {
    const created = await t.http().post('/v1/operator/tenants').set(t.operator).send({ name: 'Big plan', rate_limits: { secret: 1000 } });
    const secret = created.body.data.keys.test.secret as string;
    const responses = await burst(60, () => t.http().get('/v1/keys').set(bearer(secret)));
    expect(count(responses, 200)).toBe(60);
  });

  it('admits requests again once the window has passed', async () => {
    const created = await t.http().post('/v1/operator/tenants').set(t.operator).send({ name: 'Refill', rate_limits: { secret: 2 } });
    const secret = created.body.data.keys.test.secret as string;
    const responses = await burst(4, () => t.http().get('/v1/keys').set(bearer(secret)));
    const limited = responses.find((r) => r.status === 429);
    expect(limited).toBeDefined();
    await new Promise((r) => setTimeout(r, Number(limited!.headers['retry-after']) * 1000 + 50));
    const later = await t.http().get('/v1/keys').set(bearer(secret));
    expect(later.status).toBe(200);
  });

  it('applies a new limit from PATCH to the very next request, even with the key cached', async () => {
    for (const limit of [5, 6, 7, 8, 9, 10, 11, 12, 13, 14]) {
      const { tenant, keys } = await t.tenant();
      const warm = await t.http().get('/v1/keys').set(bearer(keys.test.secret));
      expect(warm.headers['ratelimit-limit']).toBe(String(LIMITS.rateLimits.secret));

      const patched = await t.http().patch(`/v1/operator/tenants/${tenant.id}`).set(t.operator).send({ rate_limits: { secret: limit } });
      expect(patched.status).toBe(200);
      expect(patched.body.data.rate_limits).toEqual({ secret: limit, publishable: LIMITS.rateLimits.publishable });

      const next = await t.http().get('/v1/keys').set(bearer(keys.test.secret));
      expect(next.headers['ratelimit-limit']).toBe(String(limit));
    }
  });

  it('enforces the patched limit: the sixth request in a second is refused', async () => {
    const { tenant, keys } = await t.tenant();
    await t.http().get('/v1/keys').set(bearer(keys.test.secret));
    await t.http().patch(`/v1/operator/tenants/${tenant.id}`).set(t.operator).send({ rate_limits: { secret: 5 } });

    const responses = await burst(8, () => t.http().get('/v1/keys').set(bearer(keys.test.secret)));
    expect(count(responses, 429)).toBeGreaterThanOrEqual(1);
    expect(count(responses, 200)).toBeLessThanOrEqual(5);
    for (const r of responses) expect(r.headers['ratelimit-limit']).toBe('5');
  });

  it('gives each secret key its own bucket', async () => {
    const created = await t.http().post('/v1/operator/tenants').set(t.operator).send({ name: 'Two keys', rate_limits: { secret: 3 } });
    const { test, live } = created.body.data.keys as { test: { secret: string }; live: { secret: string } };
    const other = await t.tenant();

    const exhausted = await burst(6, () => t.http().get('/v1/keys').set(bearer(test.secret)));
    expect(count(exhausted, 429)).toBeGreaterThanOrEqual(1);

    const [sameTenantOtherKey, otherTenant] = await Promise.all([
      t.http().get('/v1/keys').set(bearer(live.secret)),
      t.http().get('/v1/keys').set(bearer(other.keys.test.secret)),
    ]);
    expect(sameTenantOtherKey.status).toBe(200);
    expect(sameTenantOtherKey.headers['ratelimit-remaining']).toBe('2');
    expect(otherTenant.status).toBe(200);
  });
});
