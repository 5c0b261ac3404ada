import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@svc/contract';
import type { Principal, ResolvedKey, ResolvedTenant } from '../../src/core/principal';
import { bucketFor, RateLimits } from '../../src/core/rate-limit';
import { bearer } from '../harness';
import { burst, count, expectLimited, expectRateLimitHeaders, useRateLimitServers, windowStart } from './rate-limit-fixtures';

const { t, pub } = useRateLimitServers();

describe('bucketFor', () => {
  const tenant: ResolvedTenant = { id: 'ten_1', products: [], rateLimits: { secret: 100, publishable: 20 } };
  const key = (id: string, type: ResolvedKey['type']): ResolvedKey => ({
    id,
    type,
    livemode: false,
    scopes: null,
    ipAllowlist: null,
    expiresAt: null,
    revokedAt: null,
  });
  const scope = { tenantId: 'ten_1', livemode: false };
  const limits = new RateLimits(7);
  const pk = key('key_pk', 'publishable');
  const publishable = (clientId: string): Principal => ({ kind: 'publishable', tenant, key: pk, scope, clientId });
  const customer = (id: string): Principal => ({ kind: 'customer', tenant, key: pk, scope, customer: id, country: null, tokenKeyId: 'ctk_1' });

  it('gives each client of a publishable key its own bucket at the publishable limit', () => {
    const a = bucketFor(publishable('203.0.113.1'), limits);
    const b = bucketFor(publishable('203.0.113.2'), limits);
    expect(a.bucket).not.toBe(b.bucket);
    expect(bucketFor(publishable('203.0.113.1'), limits)).toEqual(a);
    expect(a.limit).toBe(20);
  });

  it('buckets a customer by customer, apart from the bare publishable key', () => {
    const a = bucketFor(customer('cus_a'), limits);
    const b = bucketFor(customer('cus_b'), limits);
    expect(a.bucket).not.toBe(b.bucket);
    expect(bucketFor(customer('cus_a'), limits).bucket).toBe(a.bucket);
    expect(a.bucket).not.toBe(bucketFor(publishable('cus_a'), limits).bucket);
    expect(a.limit).toBe(20);
  });

  it('buckets secret and restricted keys by key at the secret limit', () => {
    const s1 = bucketFor({ kind: 'secret', tenant, key: key('key_s1', 'secret'), scope }, limits);
    const s2 = bucketFor({ kind: 'secret', tenant, key: key('key_s2', 'secret'), scope }, limits);
    const r = bucketFor({ kind: 'restricted', tenant, key: key('key_r', 'restricted'), scope }, limits);
    expect(new Set([s1.bucket, s2.bucket, r.bucket]).size).toBe(3);
    expect([s1.limit, s2.limit, r.limit]).toEqual([100, 100, 100]);
  });

  it('buckets anonymous callers by IP at the public limit', () => {
    const a = bucketFor({ kind: 'anonymous', ip: '198.51.100.1' }, limits);
    const b = bucketFor({ kind: 'anonymous', ip: '198.51.100.2' }, limits);
    expect(a.bucket).not.toBe(b.bucket);
    expect(a.limit).toBe(7);
    // An IP bucket is never a key's bucket.
    expect(a.bucket).not.toBe(bucketFor(publishable('198.51.100.1'), limits).bucket);
  });
});

describe('RateLimits', () => {
  it('admits `limit` requests per bucket and refuses the next', async () => {
    const limits = new RateLimits(20);
    const taken = [await limits.take('a', 2), await limits.take('a', 2), await limits.take('a', 2)];
    expect(taken.map((r) => r.allowed)).toEqual([true, true, false]);
    expect(taken.map((r) => r.remaining)).toEqual([1, 0, 0]);
    expect(taken[2]!.resetMs).toBeGreaterThan(0);
    expect(taken[2]!.resetMs).toBeLessThanOrEqual(1000);
    expect((await limits.take('b', 2)).allowed).toBe(true);
  });
});

describe('public routes', () => {
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('are limited per IP at SVC_RATE_LIMIT_PUBLIC', async () => {
    // At the start of a window, so that a slow machine's burst does not straddle two.
    await windowStart();
    const responses = await burst(6, () => pub.http().get('/v1/status').set(from('192.0.2.10')));
    expect(count(responses, 429)).toBeGreaterThanOrEqual(1);
    expect(count(responses, 200)).toBeLessThanOrEqual(3);
    for (const r of responses) {
      if (r.status === 429) expectLimited(r, 3);
      else expectRateLimitHeaders(r, 3);
    }
    // Another client is not affected.
    const other = await pub.http().get('/v1/status').set(from('192.0.2.11'));
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe('2');
  });

  it('share one bucket per IP across public routes', async () => {
    const ip = from('192.0.2.20');
    await windowStart();
    const responses = await Promise.all([
      pub.http().get('/v1/status').set(ip),
      pub.http().get('/build-info').set(ip),
      pub.http().get('/v1/status').set(ip),
      pub.http().get('/build-info').set(ip),
    ]);
    expect(count(responses, 429)).toBeGreaterThanOrEqual(1);
  });

  it('count failed authentication against the IP, so guessing keys ends in 429', async () => {
    const ip = from('192.0.2.30');
    const guesses = await burst(6, () =>
      pub.http().get('/v1/keys').set(ip).set(bearer(`sk_test_${'A'.repeat(40)}`)),
    );
    expect(count(guesses, 401)).toBeGreaterThanOrEqual(1);
    expect(count(guesses, 401)).toBeLessThanOrEqual(3);
    expect(count(guesses, 429)).toBeGreaterThanOrEqual(3);
    for (const r of guesses) {
      if (r.status === 401) expect(r.body.error.code).toBe('api_key_invalid');
      else expectLimited(r, 3);
    }
  });

  it('count bad operator tokens against the IP too, while a valid key keeps its own bucket', async () => {
    const ip = from('192.0.2.40');
    const guesses = await burst(5, () =>
      pub.http().get('/v1/operator/tenants').set(ip).set(bearer('op_wrong_token_0123456789abcdefghij')),
    );
    expect(count(guesses, 401)).toBeLessThanOrEqual(3);
    expect(count(guesses, 429)).toBeGreaterThanOrEqual(2);

    const { keys } = await pub.tenant();
    const valid = await pub.http().get('/v1/keys').set(ip).set(bearer(keys.test.secret));
    expect(valid.status).toBe(200);
    expect(valid.headers['ratelimit-limit']).toBe(String(LIMITS.rateLimits.secret));
  });
});
