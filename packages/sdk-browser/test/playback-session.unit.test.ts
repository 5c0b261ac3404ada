import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SvcBrowser } from '../src';

/** A session as the API answers it, numbered so each heartbeat's link differs. */
let n = 0;
let sources = 1;
const session = () => ({
  id: 'as_1',
  object: 'access_session',
  livemode: false,
  entitlement: 'ent_1',
  customer: 'v',
  contact_hash: null,
  resource: { type: 'ls', id: 'ls_1', variant: null },
  device_id: 'd',
  state: 'active',
  ended_reason: null,
  expires_at: new Date(Date.now() + 90_000).toISOString(),
  heartbeat_interval: 30,
  grant: {
    sources: Array.from({ length: sources }, (_, i) => ({ provider: i ? 'standby' : 'simulated', url: `https://p${i || ''}/${++n}.m3u8` })), failover: { max_errors: 3, window_seconds: 60 }, heartbeat_interval: 30, token_expires_at: null },
  created_at: new Date().toISOString(),
  ended_at: null,
});
const ok = () => new Response(JSON.stringify({ data: session() }), { status: 200 });

let calls: Array<{ url: string; at: number }>;
let answers: Array<() => Response | Promise<Response>>;

beforeEach(() => {
  vi.useFakeTimers();
  sources = 1;
  calls = [];
  answers = [];
  vi.stubGlobal('fetch', async (url: string) => {
    calls.push({ url, at: Date.now() });
    const next = answers.shift();
    return next ? next() : ok();
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function open() {
  const client = new SvcBrowser({ publishableKey: 'pk_test_1', baseUrl: 'https://api', getCustomerToken: async () => 'tok' });
  const s = await client.openPlayback({ resource: 'ls_1', deviceId: 'd' });
  const events: Array<{ name: string; payload: any }> = [];
  for (const name of ['link', 'heartbeat', 'ended', 'error'] as const) s.on(name, (payload: unknown) => events.push({ name, payload }));
  return { s, events };
}
const beats = () => calls.filter((c) => c.url.endsWith('/heartbeat'));

describe('PlaybackSession timers', () => {
  it('heartbeats every heartbeat_interval seconds', async () => {
    await open();
    await vi.advanceTimersByTimeAsync(29_000);
    expect(beats()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(beats()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(beats()).toHaveLength(3);
  });

  it('hands over the newest link about every five minutes', async () => {
    const { events } = await open();
    await vi.advanceTimersByTimeAsync(1);
    expect(events.filter((e) => e.name === 'link').map((e) => e.payload.reason)).toEqual(['opened']);
    await vi.advanceTimersByTimeAsync(270_000);
    expect(events.some((e) => e.payload?.reason === 'refreshed')).toBe(false);
    await vi.advanceTimersByTimeAsync(30_000);
    const refreshed = events.filter((e) => e.payload?.reason === 'refreshed');
    expect(refreshed).toHaveLength(1);
    expect(refreshed[0]!.payload.url).toBe(`https://p/${n}.m3u8`);
  });

  it('backs off 1 s, 2 s, 4 s after network failures, then carries on at the interval', async () => {
    const { events } = await open();
    const down = () => Promise.reject(new TypeError('network down'));
    answers.push(down, down, down);
    await vi.advanceTimersByTimeAsync(30_000);
    const start = beats()[0]!.at;
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000);
    expect(beats().map((c) => c.at - start)).toEqual([0, 1_000, 3_000, 7_000]);
    expect(events.filter((e) => e.name === 'error')).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(beats()).toHaveLength(5);
    expect(events.some((e) => e.name === 'ended')).toBe(false);
  });

  it('counts failover errors only within the window', async () => {
    sources = 2;
    const { s, events } = await open();
    s.reportError();
    s.reportError();
    await vi.advanceTimersByTimeAsync(61_000);
    s.reportError();
    expect(events.some((e) => e.payload?.reason === 'failover')).toBe(false);
    s.reportError();
    s.reportError();
    expect(events.filter((e) => e.payload?.reason === 'failover')).toHaveLength(1);
    expect(s.link).toContain('https://p1/');
  });
});
