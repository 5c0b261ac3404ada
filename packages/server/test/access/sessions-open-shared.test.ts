import { describe, expect, it, vi } from 'vitest';
import { activeSessions, entitled, expectError, expectStatus, now, server, useAccessTestServer } from './access-fixtures';
import { videoNetworksPart } from '../../src/modules/streams';

const t = useAccessTestServer();

/** Opens arriving together share work (a resource's playback read, the signing key): each still gets its own answer. */
describe('opens arriving together', () => {
  it('opens at once on a disabled stream are each refused in their own answer', async () => {
    const e = await entitled(t);
    expectStatus(await server(t, e.sk).post(`/v1/streams/live_streams/${e.stream.id}/disable`), 200);
    const refused = await Promise.all(Array.from({ length: 8 }, (_, i) => e.openFor(`device-${i}`)));
    for (const res of refused) {
      expectError(res, 409, 'stream_disabled');
      expect(res.body.error.request_id).toBe(res.headers['request-id']);
    }
    expect(new Set(refused.map((r) => r.body.error.request_id)).size).toBe(8);
    expectStatus(await server(t, e.sk).post(`/v1/streams/live_streams/${e.stream.id}/enable`), 200);
    expectStatus(await e.openFor('device-0'), 201);
  });

  it("a show's first opens, all at once, make one playback signing key", async () => {
    const e = await entitled(t);
    const made = vi.spyOn(videoNetworksPart.of(t.ctx).byProvider('simulated'), 'createSigningKey');
    try {
      const opened = await Promise.all(Array.from({ length: 10 }, (_, i) => e.openFor(`device-${i}`)));
      for (const res of opened) expectStatus(res, 201);
      expect(made).toHaveBeenCalledTimes(1);
    } finally {
      made.mockRestore();
    }
  });
});

/**
 * The entitlement cache may hold a row another process changed a moment ago (its notification not yet
 * here). The open's call under the lock must then decide with the row as it is now. The changes below are
 * written straight to the table, so no notification ever arrives and the cache is surely stale.
 */
describe('opening with a stale cached entitlement', () => {
  const change = (id: string, set: Record<string, unknown>) =>
    t.ctx.db.updateTable('entitlements').set(set).where('id', '=', id).execute();

  it('answers 403 access_denied with the current reason when it was revoked meanwhile', async () => {
    const e = await entitled(t);
    expectStatus(await e.openFor('a'), 201);
    await change(e.entitlement.id, { status: 'revoked' });
    expectError(await e.openFor('b'), 403, 'access_denied', { reason: 'revoked' });
    expect(await activeSessions(t, e.entitlement.id)).toEqual(['a']);
  });

  it('answers 403 access_denied expired when it ended meanwhile', async () => {
    const e = await entitled(t, {}, { ends_at: new Date(now(t).getTime() + 3_600_000).toISOString() });
    expectStatus(await e.openFor('a'), 201);
    await change(e.entitlement.id, { ends_at: new Date(now(t).getTime() - 1000) });
    expectError(await e.openFor('b'), 403, 'access_denied', { reason: 'expired' });
  });

  it('applies the limits it holds now, not the cached ones', async () => {
    const e = await entitled(t);
    expectStatus(await e.openFor('a'), 201);
    const limits = { ...e.entitlement.limits, max_concurrent_sessions: 1, concurrency_policy: 'reject_new' };
    await change(e.entitlement.id, { limits: JSON.stringify(limits) });
    const refused = await e.openFor('b');
    expectError(refused, 409, 'concurrency_limit_reached');
    expect(refused.body.error.details).toEqual({ max_concurrent_sessions: 1, entitlement: e.entitlement.id });
    // Still allowed with the new limits: the open goes ahead with them.
    await change(e.entitlement.id, { limits: JSON.stringify({ ...limits, max_concurrent_sessions: 2 }) });
    expectStatus(await e.openFor('b'), 201);
    expect(await activeSessions(t, e.entitlement.id)).toEqual(['a', 'b']);
  });
});
