import { SignJWT, decodeProtectedHeader, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Svc } from '../src';
import { startServer, type RunningServer } from '@svc/server/testing';

let server: RunningServer;
let svc: Svc;
let keys: Awaited<ReturnType<RunningServer['createTenant']>>['keys'];
beforeAll(async () => {
  server = await startServer();
  ({ keys } = await server.createTenant());
  svc = new Svc({ apiKey: keys.test.secret, baseUrl: server.url });
}, 60_000);
afterAll(() => server?.stop());

/** A browser's sign-in by phone code, reading the captured code with the server's SDK. */
async function signIn(phone: string) {
  const post = (path: string, body: object) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'Svc-Publishable-Key': keys.test.publishable, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await post('/auth/v1/otp', { phone })).status).toBe(200);
  const page = await svc.identity.messages.list({ to: phone, limit: 1 });
  const code = /\b(\d{6})\b/.exec(page.data[0]!.body)![1]!;
  const res = await post('/auth/v1/verify', { phone, code });
  return ((await res.json()) as { data: { access_token: string; user: { id: string; customer: string; tenant: string } } }).data;
}

describe('verifyAccessToken', () => {
  it('accepts a token the server issued, checking it against the served JWKS', async () => {
    const session = await signIn('+254711222333');
    const claims = await svc.verifyAccessToken(session.access_token);
    expect(claims).toMatchObject({ sub: session.user.id, cus: session.user.customer, tid: session.user.tenant, livemode: false, aud: 'svc' });
    // The new routes come from the contract: customers are there too.
    const customer = await svc.customers.retrieve({ id: session.user.customer });
    expect(customer.person).toBe(session.user.id);
  });

  it('refuses a token with another key, another algorithm or a changed claim', async () => {
    const session = await signIn('+254711222444');
    const { kid } = decodeProtectedHeader(session.access_token);
    const payload = JSON.parse(Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString());
    const { privateKey } = await generateKeyPair('ES256');
    await expect(svc.verifyAccessToken(await new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid }).sign(privateKey))).rejects.toThrow();
    await expect(svc.verifyAccessToken(await new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid }).sign(new Uint8Array(32)))).rejects.toThrow();
    const [h, , sig] = session.access_token.split('.');
    const changed = Buffer.from(JSON.stringify({ ...payload, tid: 'ten_other' })).toString('base64url');
    await expect(svc.verifyAccessToken(`${h}.${changed}.${sig}`)).rejects.toThrow();
  });
});
