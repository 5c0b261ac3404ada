import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryTokenStorage, SvcAuth, SvcBrowser, type AuthSession, type TokenStorage } from '../src';

const now = () => Math.floor(Date.now() / 1000);
let issued = 0;
const session = (expiresIn = 900): AuthSession => ({
  access_token: `at_${++issued}`,
  token_type: 'bearer',
  expires_in: expiresIn,
  expires_at: now() + expiresIn,
  refresh_token: `rt_${issued}`,
  user: { id: 'usr_1', phone: '+254700000000', email: null, customer: 'cus_1', tenant: 'ten_1', livemode: false },
});

/** A scripted API: each path answers with the function given; every call is recorded. */
function api(routes: Record<string, (body: any, headers: Record<string, string>) => { status: number; data?: unknown; error?: object }>) {
  const calls: Array<{ path: string; body: any; headers: Record<string, string> }> = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const path = new URL(url).pathname;
    const headers = init.headers as Record<string, string>;
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path, body, headers });
    await new Promise((r) => setTimeout(r, 5));
    const answer = routes[path]!(body, headers);
    const text = answer.status === 204 ? '' : JSON.stringify(answer.error ? { error: answer.error } : { data: answer.data });
    return new Response(text || null, { status: answer.status });
  });
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('SvcAuth', () => {
  it('requests and verifies a code, keeps the session and tells listeners', async () => {
    const calls = api({
      '/auth/v1/otp': () => ({ status: 200, data: { channel: 'sms', expires_at: 'x', resend_after: 'y' } }),
      '/auth/v1/verify': () => ({ status: 200, data: session() }),
    });
    const auth = new SvcAuth({ publishableKey: 'pk_test_1', baseUrl: 'https://api.test' });
    const seen: Array<AuthSession | null> = [];
    auth.onChange((s) => seen.push(s));
    expect((await auth.requestCode({ phone: '+254700000000' })).channel).toBe('sms');
    const s = await auth.verifyCode({ phone: '+254700000000', code: '123456' });
    expect(await auth.getAccessToken()).toBe(s.access_token);
    expect(seen).toEqual([s]);
    expect(calls[0]!.headers['Svc-Publishable-Key']).toBe('pk_test_1');
  });

  it('refreshes before expiry with one refresh in flight however many calls wait', async () => {
    let refreshes = 0;
    const calls = api({ '/auth/v1/token': () => (refreshes++, { status: 200, data: session() }) });
    const storage = new MemoryTokenStorage();
    const auth = new SvcAuth({ publishableKey: 'pk_test_1', baseUrl: 'https://api.test', storage });
    const old = session(30);
    await auth.setSession(old);
    const tokens = await Promise.all(Array.from({ length: 10 }, () => auth.getAccessToken()));
    expect(refreshes).toBe(1);
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(old.access_token);
    expect(calls[0]!.body).toEqual({ grant_type: 'refresh_token', refresh_token: old.refresh_token });
    // Fresh now: no further refresh.
    await auth.getAccessToken();
    expect(refreshes).toBe(1);
  });

  it('signs out when the refresh is refused, and on signOut', async () => {
    api({
      '/auth/v1/token': () => ({ status: 401, error: { code: 'refresh_token_already_used', message: 'used' } }),
      '/auth/v1/logout': () => ({ status: 204 }),
    });
    const auth = new SvcAuth({ publishableKey: 'pk_test_1', baseUrl: 'https://api.test' });
    const seen: Array<AuthSession | null> = [];
    auth.onChange((s) => seen.push(s));
    await auth.setSession(session(10));
    expect(await auth.getAccessToken()).toBeNull();
    expect(seen.at(-1)).toBeNull();
    await auth.setSession(session());
    await auth.signOut({ scope: 'global' });
    expect(await auth.getAccessToken()).toBeNull();
  });

  it('takes a pluggable storage, and gives SvcBrowser customer tokens without a server of the page', async () => {
    const kept: AuthSession[] = [];
    const storage: TokenStorage = { get: async () => kept.at(-1) ?? null, set: async (s) => void kept.push(s), clear: () => void kept.splice(0) };
    const calls = api({ '/auth/v1/customer_token': () => ({ status: 200, data: { token: 'ct_1', expires_at: 'x' } }) });
    const browser = new SvcBrowser({ publishableKey: 'pk_test_1', baseUrl: 'https://api.test', authStorage: storage });
    await browser.auth.setSession(session());
    expect(kept).toHaveLength(1);
    expect(await browser.auth.customerToken()).toBe('ct_1');
    expect(calls[0]!.headers.Authorization).toBe(`Bearer ${kept[0]!.access_token}`);
    expect(SvcAuth.sessionFromFragment('#access_token=a&refresh_token=b&expires_at=5')).toEqual({ access_token: 'a', refresh_token: 'b', expires_at: 5 });
  });

  it('books as the signed-in person (their access token, no publishable key), and with the key when signed out', async () => {
    const booked = { booking: { id: 'ord_1', code: 'ABCD1234', status: 'pending' }, payment: 'https://api.test/checkout/cs_1' };
    const calls = api({ '/v1/events/jazz/book': () => ({ status: 201, data: booked }) });
    const browser = new SvcBrowser({ publishableKey: 'pk_test_1', baseUrl: 'https://api.test' });
    const request = { ticket_id: 'tt_1', quantity: 1, buyer_name: 'W', buyer_email: 'w@example.com' } as never;
    await browser.book('jazz', request);
    expect(calls[0]!.headers['Svc-Publishable-Key']).toBe('pk_test_1');
    expect(calls[0]!.headers.Authorization).toBeUndefined();
    const signedIn = session();
    await browser.auth.setSession(signedIn);
    expect(await browser.book('jazz', request)).toEqual(booked);
    expect(calls[1]!.headers.Authorization).toBe(`Bearer ${signedIn.access_token}`);
    expect(calls[1]!.headers['Svc-Publishable-Key']).toBeUndefined();
    expect(calls[1]!.headers['Idempotency-Key']).toBeTruthy();
  });
});
