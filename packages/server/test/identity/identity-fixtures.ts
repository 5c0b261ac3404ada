import { expect } from 'vitest';
import type { Response } from 'supertest';
import { bearer, type TestServer } from '../harness';

export type Tenant = Awaited<ReturnType<TestServer['tenant']>>;

export function expectError(res: Response, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  return res.body.error;
}

export function expectOk(res: Response, status = 200) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** The code in the newest captured message to `to`, read the way a test-mode integration reads it. */
export async function latestCode(t: TestServer, secret: string, to: string): Promise<string> {
  const res = await t.http().get('/v1/messages').query({ to, limit: 1 }).set(bearer(secret));
  expectOk(res);
  const body: string = res.body.data[0].body;
  return /\b(\d{6})\b/.exec(body)![1]!;
}

let phoneCounter = 0;
/** A fresh phone number per call, so limits of one test do not reach another. */
export const newPhone = () => `+2547${String(Date.now() % 1e6).padStart(6, '0')}${String(phoneCounter++ % 100).padStart(2, '0')}`;
let emailCounter = 0;
export const newEmail = () => `person${Date.now()}${emailCounter++}@example.test`;

/** Signs a person in with a code in test mode through the tenant's publishable key; answers the session. */
export async function signInByPhone(t: TestServer, tenant: Tenant, phone = newPhone()) {
  const pk = { 'Svc-Publishable-Key': tenant.keys.test.publishable };
  expectOk(await t.http().post('/auth/v1/otp').set(pk).send({ phone }));
  const code = await latestCode(t, tenant.keys.test.secret, phone);
  const res = await t.http().post('/auth/v1/verify').set(pk).send({ phone, code });
  return expectOk(res).data as {
    access_token: string;
    refresh_token: string;
    expires_at: number;
    user: { id: string; customer: string; phone: string | null; email: string | null; tenant: string; livemode: boolean };
  };
}

export async function signInByEmail(t: TestServer, tenant: Tenant, email = newEmail()) {
  const pk = { 'Svc-Publishable-Key': tenant.keys.test.publishable };
  expectOk(await t.http().post('/auth/v1/otp').set(pk).send({ email }));
  const code = await latestCode(t, tenant.keys.test.secret, email);
  return expectOk(await t.http().post('/auth/v1/verify').set(pk).send({ email, code })).data;
}

export const nowOf = (t: TestServer) => (t.ctx.clock ? t.ctx.clock() : new Date());
export const advance = (t: TestServer, ms: number) => {
  const at = new Date(nowOf(t).getTime() + ms);
  t.ctx.clock = () => new Date(at);
};
