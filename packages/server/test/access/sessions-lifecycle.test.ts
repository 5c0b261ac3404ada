import { describe, expect, it } from 'vitest';
import { accessDeps } from '../../src/modules/access/access-deps';
import { expireDueEntitlements } from '../../src/modules/access/entitlements/expire-entitlements.job';
import { endMissedHeartbeats } from '../../src/modules/access/sessions/end-missed-heartbeats.job';
import { extendSessions } from '../../src/modules/access/sessions/sessions.repository';
import { sql } from 'kysely';
import {
  advance,
  browser,
  useAccessTestServer,
  entitled,
  expectError,
  expectStatus,
  now,
  server,
  sessionRow,
  setClock,
  signToken,
} from './access-fixtures';

const t = useAccessTestServer();

const freeze = () => setClock(t, new Date(Math.floor(Date.now() / 1000) * 1000));

describe('heartbeat (active → active)', () => {
  it('keeps the session 90 s past each heartbeat and returns a fresh grant', async () => {
    freeze();
    const e = await entitled(t);
    const opened = expectStatus(await e.openFor('d'), 201).data;
    advance(t, 30_000);
    const beat = expectStatus(await e.heartbeat(opened.id), 200).data;
    expect(beat).toMatchObject({ id: opened.id, state: 'active', ended_reason: null });
    expect(Date.parse(beat.expires_at)).toBe(Date.parse(opened.expires_at) + 30_000);
    expect(Date.parse(beat.grant.token_expires_at)).toBe(Date.parse(beat.expires_at) + 600_000);
    expect(beat.grant.sources[0].url).not.toBe(opened.grant.sources[0].url);
    expect(beat.grant).toMatchObject({ heartbeat_interval: 30, failover: { max_errors: 3, window_seconds: 60 } });
    // Still alive 89 s after the last heartbeat.
    advance(t, 89_000);
    expectStatus(await e.heartbeat(opened.id), 200);
  });

  it('two heartbeats at once both succeed and leave one active session', async () => {
    const e = await entitled(t);
    const opened = expectStatus(await e.openFor('d'), 201).data;
    const beats = await Promise.all(Array.from({ length: 8 }, () => e.heartbeat(opened.id)));
    expect(beats.map((b) => b.status)).toEqual(Array(8).fill(200));
    expect(await sessionRow(t, opened.id)).toMatchObject({ state: 'active', ended_reason: null });
  });

  it('answers 404 for unknown sessions and for sessions of another customer, tenant or environment', async () => {
    const e = await entitled(t);
    const opened = expectStatus(await e.openFor('d'), 201).data;
    expectError(await e.heartbeat('as_01jdzzzzzzzzzzzzzzzzzzzzzz'), 404, 'resource_not_found');
    expectError(await e.heartbeat('ent_123'), 404, 'resource_not_found');
    const other = await entitled(t);
    expectError(await server(t, other.sk).post(`/v1/access/sessions/${opened.id}/heartbeat`), 404, 'resource_not_found');
    expectError(await server(t, e.tenant.keys.live.secret).post(`/v1/access/sessions/${opened.id}/heartbeat`), 404, 'resource_not_found');
    expectError(await server(t, e.sk).post(`/v1/access/sessions/${opened.id}/heartbeat`, { customer: 'viewer-2' }), 404, 'resource_not_found');
    expectStatus(await server(t, e.sk).post(`/v1/access/sessions/${opened.id}/heartbeat`, { customer: 'viewer-1' }), 200);
    const stranger = await signToken(t, e.key, { sub: 'viewer-2' });
    expectError(await browser(t, e.pk, stranger).post(`/v1/access/sessions/${opened.id}/heartbeat`), 404, 'resource_not_found');
    expectError(await browser(t, e.pk, stranger).delete(`/v1/access/sessions/${opened.id}`), 404, 'resource_not_found');
    expectStatus(await browser(t, e.pk, e.token).post(`/v1/access/sessions/${opened.id}/heartbeat`), 200);
  });
});

describe('ending (state table)', () => {
  it('active → ended, reason client, on DELETE; its heartbeat gets 403 session_ended; DELETE again answers it', async () => {
    const e = await entitled(t, { max_concurrent_sessions: 1, concurrency_policy: 'reject_new' });
    const opened = expectStatus(await e.openFor('d'), 201).data;
    const ended = expectStatus(await e.end(opened.id), 200).data;
    expect(ended).toMatchObject({ id: opened.id, state: 'ended', ended_reason: 'client', grant: null });
    expect(ended.ended_at).toEqual(expect.any(String));
    const res = await e.heartbeat(opened.id);
    expectError(res, 403, 'session_ended', { reason: 'client' });
    expect(res.body.error.type).toBe('permission_error');
    expect(expectStatus(await e.end(opened.id), 200).data).toEqual(ended);
    // The slot is free again.
    expectStatus(await e.openFor('other'), 201);
  });

  it('ends with query customer or contact_hash only when they match', async () => {
    const e = await entitled(t);
    const opened = expectStatus(await e.openFor('d'), 201).data;
    expectError(await server(t, e.sk).delete(`/v1/access/sessions/${opened.id}?customer=viewer-2`), 404, 'resource_not_found');
    expectError(await server(t, e.sk).delete(`/v1/access/sessions/${opened.id}?contact_hash=${'c'.repeat(64)}`), 404, 'resource_not_found');
    expectError(await server(t, e.sk).delete(`/v1/access/sessions/${opened.id}?contact_hash=xyz`), 422, 'validation_failed');
    expectStatus(await server(t, e.sk).delete(`/v1/access/sessions/${opened.id}?customer=viewer-1`), 200);
  });

  it('a browser ends its own session', async () => {
    const e = await entitled(t);
    const viewer = browser(t, e.pk, e.token);
    const opened = expectStatus(await viewer.post('/v1/access/sessions', { resource: e.stream.id, device_id: 'd' }), 201).data;
    expect(expectStatus(await viewer.delete(`/v1/access/sessions/${opened.id}`), 200).data.ended_reason).toBe('client');
  });

  it('active → ended, reason missed_heartbeats, about 90 s after the last heartbeat: at the next heartbeat and by the sweep', async () => {
    freeze();
    const e = await entitled(t);
    const quiet = expectStatus(await e.openFor('quiet'), 201).data;
    const lively = expectStatus(await e.openFor('lively'), 201).data;
    const late = expectStatus(await e.openFor('late'), 201).data;
    advance(t, 60_000);
    expectStatus(await e.heartbeat(lively.id), 200);
    advance(t, 31_000);
    // 91 s after the last heartbeat: the heartbeat itself finds the session lapsed.
    expectError(await e.heartbeat(late.id), 403, 'session_ended', { reason: 'missed_heartbeats' });
    // The sweep covers every tenant: sessions of earlier tests lapse here too.
    expect(await endMissedHeartbeats(accessDeps(t.ctx))).toBeGreaterThanOrEqual(1);
    const row = await sessionRow(t, quiet.id);
    expect(row).toMatchObject({ state: 'ended', ended_reason: 'missed_heartbeats' });
    expect(row.ended_at!.toISOString()).toBe(quiet.expires_at);
    expectError(await e.heartbeat(quiet.id), 403, 'session_ended', { reason: 'missed_heartbeats' });
    expectStatus(await e.heartbeat(lively.id), 200);
    expect(await endMissedHeartbeats(accessDeps(t.ctx))).toBe(0);
  });

  it('a heartbeat rewrites its row in place: no index holds what it writes, and its update is heap-only', async () => {
    // Heap-only (HOT) needs every column it changes outside every index, predicate and expression of the table.
    const { rows: covering } = await sql<{ name: string }>`
      select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = 'access_sessions'::regclass
        and (exists (select 1 from pg_attribute a where a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                       and a.attname in ('last_heartbeat_at', 'expires_at'))
             or pg_get_expr(i.indpred, i.indrelid) ~ '(last_heartbeat_at|expires_at)'
             or pg_get_expr(i.indexprs, i.indrelid) ~ '(last_heartbeat_at|expires_at)')`.execute(t.ctx.db);
    expect(covering).toEqual([]);
    const e = await entitled(t);
    const id = expectStatus(await e.openFor('a'), 201).data.id;
    const scope = { tenantId: e.tenant.tenant.id, livemode: false };
    const at = new Date(now(t).getTime() + 1000);
    // This backend's counts, read before and after in one transaction: the update's own, whatever runs elsewhere.
    const counts = await t.ctx.db.transaction().execute(async (tx) => {
      const read = async () =>
        (
          await sql<{ updated: number; hot: number }>`
            select pg_stat_get_xact_tuples_updated('access_sessions'::regclass)::int as updated,
                   pg_stat_get_xact_tuples_hot_updated('access_sessions'::regclass)::int as hot`.execute(tx)
        ).rows[0]!;
      const before = await read();
      expect(await extendSessions(tx, [{ scope, id, now: at, expiresAt: new Date(at.getTime() + 90_000), customer: null, contactHash: null }])).toHaveLength(1);
      const after = await read();
      return { updated: after.updated - before.updated, hot: after.hot - before.hot };
    });
    expect(counts).toEqual({ updated: 1, hot: 1 });
  });

  it('a client ending a session that already lapsed finds it ended by missed heartbeats', async () => {
    const e = await entitled(t);
    const opened = expectStatus(await e.openFor('d'), 201).data;
    advance(t, 120_000);
    expect(expectStatus(await e.end(opened.id), 200).data.ended_reason).toBe('missed_heartbeats');
  });

  it.each(['revoke', 'suspend'])('active → ended, reason entitlement_inactive, on %s of the entitlement', async (action) => {
    const e = await entitled(t);
    const opened = expectStatus(await e.openFor('d'), 201).data;
    const path = `/v1/access/entitlements/${e.entitlement.id}`;
    expectStatus(await (action === 'revoke' ? server(t, e.sk).delete(path) : server(t, e.sk).post(`${path}/suspend`)), 200);
    expectError(await e.heartbeat(opened.id), 403, 'session_ended', { reason: 'entitlement_inactive' });
    expectError(await e.openFor('d'), 403, 'access_denied', { reason: action === 'revoke' ? 'revoked' : 'suspended' });
  });

  it('active → ended, reason entitlement_inactive, when the entitlement expires (before and after the expiry sweep)', async () => {
    freeze();
    const e = await entitled(t, {}, { ends_at: new Date(now(t).getTime() + 60_000).toISOString() });
    const first = expectStatus(await e.openFor('a'), 201).data;
    const second = expectStatus(await e.openFor('b'), 201).data;
    advance(t, 30_000);
    expectStatus(await e.heartbeat(first.id), 200);
    advance(t, 31_000);
    expectError(await e.heartbeat(first.id), 403, 'session_ended', { reason: 'entitlement_inactive' });
    expect(await expireDueEntitlements(accessDeps(t.ctx))).toBeGreaterThanOrEqual(1);
    expect(await sessionRow(t, second.id)).toMatchObject({ state: 'ended', ended_reason: 'entitlement_inactive' });
    expectError(await e.heartbeat(second.id), 403, 'session_ended', { reason: 'entitlement_inactive' });
  });

  it('a browser heartbeat is checked against the customer token: an expired token fails and the session lapses', async () => {
    freeze();
    const e = await entitled(t);
    const shortLived = await signToken(t, e.key, { exp: Math.floor(now(t).getTime() / 1000) + 60 });
    const opened = expectStatus(await browser(t, e.pk, shortLived).post('/v1/access/sessions', { resource: e.stream.id, device_id: 'd' }), 201).data;
    advance(t, 30_000);
    expectStatus(await browser(t, e.pk, shortLived).post(`/v1/access/sessions/${opened.id}/heartbeat`), 200);
    advance(t, 100_000);
    expectError(await browser(t, e.pk, shortLived).post(`/v1/access/sessions/${opened.id}/heartbeat`), 401, 'invalid_customer_token', { reason: 'token_expired' });
    expect(await endMissedHeartbeats(accessDeps(t.ctx))).toBeGreaterThanOrEqual(1);
    const fresh = await signToken(t, e.key);
    expectError(await browser(t, e.pk, fresh).post(`/v1/access/sessions/${opened.id}/heartbeat`), 403, 'session_ended', { reason: 'missed_heartbeats' });
  });

  it('revoking the customer token key refuses heartbeats signed with it, but keeps issued links playing', async () => {
    const e = await entitled(t);
    const opened = expectStatus(await browser(t, e.pk, e.token).post('/v1/access/sessions', { resource: e.stream.id, device_id: 'd' }), 201).data;
    expectStatus(await server(t, e.sk).delete(`/v1/access/customer_token_keys/${e.key.id}`), 200);
    expectError(await browser(t, e.pk, e.token).post(`/v1/access/sessions/${opened.id}/heartbeat`), 401, 'invalid_customer_token', { reason: 'key_revoked' });
    const url = new URL(opened.grant.sources[0].url);
    expect((await t.http().get(`${url.pathname}${url.search}`)).status).toBe(200);
  });
});
