import { describe, expect, it } from 'vitest';
import { useScriptedPage } from './browser';
import { apiError } from './scripted-api';

const s = useScriptedPage();

/** Opens a playback session in the page and records its events on `window.events`. */
async function open(options: { linkRefreshMs?: number } = {}) {
  await s.page.evaluate(async ({ base, linkRefreshMs }) => {
    const w = window as any;
    w.events = [];
    w.tokens = 0;
    const client = new w.sdk.SvcBrowser({
      publishableKey: 'pk_test_abc',
      baseUrl: base,
      linkRefreshMs,
      getCustomerToken: async () => `token-${++w.tokens}`,
    });
    const session = await client.openPlayback({ resource: 'ls_1', deviceId: 'device-1' });
    w.session = session;
    for (const name of ['link', 'heartbeat', 'ended', 'error']) {
      session.on(name, (payload: any) => w.events.push({ name, reason: payload?.reason, url: payload?.url, source: payload?.source, code: payload?.code }));
    }
  }, { base: s.api.url, ...options });
}

const events = () => s.page.evaluate(() => (window as any).events as Array<{ name: string; reason?: string; url?: string; source?: number; code?: string }>);

// The scripted API asks for a heartbeat every second; the waits' limits are several times what the timers need, so
// that a machine busy with the server's suite beside these tests slows them without failing them.
describe('PlaybackSession in Chromium', () => {
  it('opens with the publishable key and token, hands over the first link, and heartbeats every interval', async () => {
    await open();
    const openCall = s.api.calls[0]!;
    expect(openCall.headers['svc-publishable-key']).toBe('pk_test_abc');
    expect(openCall.headers.authorization).toBe('Bearer token-1');
    expect(openCall.body).toEqual({ resource: 'ls_1', device_id: 'device-1' });
    expect(openCall.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => s.api.heartbeats().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    // A heartbeat is idempotent by nature: no key, so the server stores nothing for it.
    expect(s.api.heartbeats().map((c) => c.headers['idempotency-key'])).toEqual(s.api.heartbeats().map(() => undefined));
    const ev = await events();
    expect(ev[0]).toMatchObject({ name: 'link', reason: 'opened', source: 0 });
    expect(ev.filter((e) => e.name === 'heartbeat').length).toBeGreaterThanOrEqual(1);
  });

  it('hands the player the newest link when the refresh period has passed', async () => {
    await open({ linkRefreshMs: 1500 });
    await expect.poll(async () => (await events()).some((e) => e.name === 'link' && e.reason === 'refreshed'), { timeout: 15_000 }).toBe(true);
    const refreshed = (await events()).find((e) => e.reason === 'refreshed')!;
    expect(refreshed.url).not.toBe((await events())[0]!.url);
  });

  it('fails over to the next source after max_errors fatal errors within the window', async () => {
    s.api.sources = [
      { provider: 'primary', url: 'https://a.example/x.m3u8?t=1' },
      { provider: 'standby', url: 'https://b.example/x.m3u8?t=1' },
    ];
    await open();
    await s.page.evaluate(() => (window as any).session.reportError());
    expect((await events()).some((e) => e.reason === 'failover')).toBe(false);
    await s.page.evaluate(() => (window as any).session.reportError());
    const failover = (await events()).find((e) => e.reason === 'failover');
    expect(failover).toMatchObject({ source: 1 });
    expect(failover!.url).toContain('b.example');
    expect(await s.page.evaluate(() => (window as any).session.link)).toContain('b.example');
  });

  it('stops and reports the reason when the server ends the session', async () => {
    s.api.heartbeatScript = [apiError(403, 'session_ended', { reason: 'replaced_by_newer_session' })];
    await open();
    await expect.poll(async () => (await events()).find((e) => e.name === 'ended'), { timeout: 15_000 }).toMatchObject({ reason: 'replaced_by_newer_session' });
    const count = s.api.heartbeats().length;
    await s.page.waitForTimeout(1500);
    expect(s.api.heartbeats().length).toBe(count);
  });

  it('fetches a new customer token once on 401 invalid_customer_token and carries on', async () => {
    s.api.heartbeatScript = [apiError(401, 'invalid_customer_token', { reason: 'token_expired' })];
    await open();
    await expect.poll(() => s.api.heartbeats().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    const tokens = s.api.heartbeats().map((c) => c.headers.authorization);
    expect(tokens[0]).toBe('Bearer token-1');
    expect(tokens[1]).toBe('Bearer token-2');
    expect(tokens.at(-1)).toBe('Bearer token-2');
    expect((await events()).some((e) => e.name === 'ended')).toBe(false);
  });

  it('ends when a fresh token is refused too', async () => {
    const refused = apiError(401, 'invalid_customer_token', { reason: 'invalid_signature' });
    s.api.heartbeatScript = [refused, refused];
    await open();
    await expect.poll(async () => (await events()).find((e) => e.name === 'ended'), { timeout: 15_000 }).toMatchObject({ reason: 'invalid_customer_token' });
  });

  it('survives transient failures (5xx, dropped connections) with backoff', async () => {
    s.api.heartbeatScript = [apiError(503, 'service_unavailable'), 'drop', apiError(502, 'provider_unavailable')];
    await open();
    await expect.poll(() => s.api.heartbeats().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
    // The fourth heartbeat has reached the server; its answer reaches the page a moment later.
    await expect.poll(async () => (await events()).some((e) => e.name === 'heartbeat'), { timeout: 10_000 }).toBe(true);
    const ev = await events();
    expect(ev.filter((e) => e.name === 'error').length).toBeGreaterThanOrEqual(2);
    expect(ev.some((e) => e.name === 'ended')).toBe(false);
  });

  it('ends the session with a keepalive request when the page goes away', async () => {
    await open();
    await s.page.goto(`${s.api.url}/other`);
    await expect.poll(() => s.api.calls.filter((c) => c.method === 'DELETE').length, { timeout: 15_000 }).toBe(1);
    const del = s.api.calls.find((c) => c.method === 'DELETE')!;
    expect(del.path).toBe('/v1/access/sessions/as_test1');
    expect(del.headers['svc-publishable-key']).toBe('pk_test_abc');
    expect(del.headers['idempotency-key']).toBeUndefined();
  });

  it('ends on request with reason client', async () => {
    await open();
    await s.page.evaluate(() => (window as any).session.end());
    expect((await events()).find((e) => e.name === 'ended')).toMatchObject({ reason: 'client' });
    expect(s.api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('retries the open once with a new token', async () => {
    s.api.openScript = [apiError(401, 'invalid_customer_token', { reason: 'token_expired' })];
    await open();
    const opens = s.api.calls.filter((c) => c.path === '/v1/access/sessions');
    expect(opens.map((c) => c.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    // The same open sent again: the same key.
    expect(opens[1]!.headers['idempotency-key']).toBe(opens[0]!.headers['idempotency-key']);
    expect(opens[0]!.headers['idempotency-key']).toBeTruthy();
  });
});
