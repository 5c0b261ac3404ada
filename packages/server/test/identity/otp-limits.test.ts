import { describe, expect, it } from 'vitest';
import { createTenant } from '../../src/modules/platform/tenants/tenants.service';
import { useTestServer } from '../harness';
import { advance, expectError, expectOk, latestCode, newEmail, newPhone, type Tenant } from './identity-fixtures';

const t = useTestServer();
const pkOf = (tenant: Tenant) => ({ 'Svc-Publishable-Key': tenant.keys.test.publishable });
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('sign-in code limits', () => {
  it('allows one send per destination per 60 s and 5 per hour, with Retry-After', async () => {
    const tenant = await t.tenant();
    const phone = newPhone();
    expectOk(await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ phone }));
    const early = await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ phone });
    expectError(early, 429, 'rate_limited');
    expect(Number(early.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(early.headers['retry-after'])).toBeLessThanOrEqual(60);
    for (let i = 0; i < 4; i++) {
      advance(t, 61_000);
      expectOk(await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ phone }));
    }
    advance(t, 61_000);
    const sixth = await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ phone });
    expectError(sixth, 429, 'rate_limited');
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(60 * 50);
    advance(t, 3600_000);
    expectOk(await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ phone }));
  });

  it('allows 30 sends per client address per hour', async () => {
    const tenant = await createTenant(t.ctx.db, { name: 'Busy', rate_limits: { publishable: 1000 } });
    advance(t, 2 * 3600_000);
    for (let i = 0; i < 30; i++) expectOk(await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ phone: newPhone() }));
    expectError(await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ phone: newPhone() }), 429, 'rate_limited');
    advance(t, 3600_000);
  });

  it('replaces the previous code with a new one', async () => {
    const tenant = await t.tenant();
    const phone = newPhone();
    expectOk(await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ phone }));
    const first = await latestCode(t, tenant.keys.test.secret, phone);
    advance(t, 61_000);
    expectOk(await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ phone }));
    const second = await latestCode(t, tenant.keys.test.secret, phone);
    if (first !== second) expectError(await t.http().post('/auth/v1/verify').set(pkOf(tenant)).send({ phone, code: first }), 401, 'otp_invalid');
    expectOk(await t.http().post('/auth/v1/verify').set(pkOf(tenant)).send({ phone, code: second }));
    // Spent: the same code does not sign in twice.
    expectError(await t.http().post('/auth/v1/verify').set(pkOf(tenant)).send({ phone, code: second }), 401, 'otp_invalid');
  });

  it('expires a phone code after 5 minutes', async () => {
    const tenant = await t.tenant();
    const phone = newPhone();
    expectOk(await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ phone }));
    const code = await latestCode(t, tenant.keys.test.secret, phone);
    advance(t, 5 * 60_000 + 1000);
    expectError(await t.http().post('/auth/v1/verify').set(pkOf(tenant)).send({ phone, code }), 401, 'otp_expired');
  });

  it('keeps an email code for 10 minutes', async () => {
    const tenant = await t.tenant();
    const email = newEmail();
    const sent = expectOk(await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ email }));
    expect(sent.data.channel).toBe('email');
    const code = await latestCode(t, tenant.keys.test.secret, email);
    advance(t, 9 * 60_000);
    expectOk(await t.http().post('/auth/v1/verify').set(pkOf(tenant)).send({ email, code }));
    advance(t, 61_000);
    expectOk(await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ email }));
    const next = await latestCode(t, tenant.keys.test.secret, email);
    advance(t, 10 * 60_000 + 1000);
    expectError(await t.http().post('/auth/v1/verify').set(pkOf(tenant)).send({ email, code: next }), 401, 'otp_expired');
  });

  it('burns a code after five wrong tries, and locks the destination after ten failures in an hour', async () => {
    const tenant = await t.tenant();
    const phone = newPhone();
    expectOk(await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ phone }));
    const code = await latestCode(t, tenant.keys.test.secret, phone);
    for (let i = 0; i < 5; i++) expectError(await t.http().post('/auth/v1/verify').set(pkOf(tenant)).send({ phone, code: wrong(code) }), 401, 'otp_invalid');
    expectError(await t.http().post('/auth/v1/verify').set(pkOf(tenant)).send({ phone, code }), 429, 'otp_attempts_exceeded');

    // A resend does not reset the count of failures: five more and the destination is locked.
    advance(t, 61_000);
    expectOk(await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ phone }));
    const next = await latestCode(t, tenant.keys.test.secret, phone);
    for (let i = 0; i < 5; i++) expectError(await t.http().post('/auth/v1/verify').set(pkOf(tenant)).send({ phone, code: wrong(next) }), 401, 'otp_invalid');
    advance(t, 61_000);
    expectOk(await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ phone }));
    const third = await latestCode(t, tenant.keys.test.secret, phone);
    const locked = await t.http().post('/auth/v1/verify').set(pkOf(tenant)).send({ phone, code: third });
    expectError(locked, 429, 'otp_attempts_exceeded');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(50 * 60);
    advance(t, 3600_000);
    expectError(await t.http().post('/auth/v1/verify').set(pkOf(tenant)).send({ phone, code: third }), 401, 'otp_expired');
  });

  it('lets only one of two verifies of one code win', async () => {
    const tenant = await t.tenant();
    const phone = newPhone();
    expectOk(await t.http().post('/auth/v1/otp').set(pkOf(tenant)).send({ phone }));
    const code = await latestCode(t, tenant.keys.test.secret, phone);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => t.http().post('/auth/v1/verify').set(pkOf(tenant)).send({ phone, code })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 401, 401, 401]);
    for (const r of results.filter((x) => x.status === 401)) expect(r.body.error.code).toBe('otp_invalid');
  });
});
