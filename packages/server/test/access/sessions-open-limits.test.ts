import { describe, expect, it } from 'vitest';
import {
  activeSessions,
  advance,
  useAccessTestServer,
  entitled,
  expectError,
  expectStatus,
  open,
  sessionRow,
} from './access-fixtures';

const t = useAccessTestServer();

describe('limits when opening', () => {
  it('the same device reopening replaces its own session, at no new view', async () => {
    const e = await entitled(t, { max_views: 1, max_concurrent_sessions: 1, concurrency_policy: 'reject_new' });
    const first = expectStatus(await e.openFor('laptop'), 201).data;
    const second = expectStatus(await e.openFor('laptop'), 201).data;
    expect(await sessionRow(t, first.id)).toMatchObject({ state: 'ended', ended_reason: 'replaced_by_newer_session' });
    expectError(await e.heartbeat(first.id), 403, 'session_ended', { reason: 'replaced_by_newer_session' });
    expectStatus(await e.heartbeat(second.id), 200);
    expect(await activeSessions(t, e.entitlement.id)).toEqual(['laptop']);
  });

  it('max_devices: a new device beyond it is 403 device_limit_reached; known devices come back; a refused open takes no slot', async () => {
    const e = await entitled(t, { max_devices: 2, max_concurrent_sessions: 1, concurrency_policy: 'reject_new' });
    const a = expectStatus(await e.openFor('a'), 201).data;
    expectError(await e.openFor('b'), 409, 'concurrency_limit_reached');
    expectStatus(await e.end(a.id), 200);
    const c = expectStatus(await e.openFor('c'), 201).data;
    expectStatus(await e.end(c.id), 200);
    const res = await e.openFor('d');
    expectError(res, 403, 'device_limit_reached');
    expect(res.body.error.type).toBe('permission_error');
    expectStatus(await e.openFor('a'), 201);
  });

  it('max_views: beyond it 403 view_limit_reached; a refused open uses no view', async () => {
    const e = await entitled(t, { max_views: 2, max_concurrent_sessions: 1, concurrency_policy: 'reject_new' });
    const a = expectStatus(await e.openFor('a'), 201).data;
    expectError(await e.openFor('b'), 409, 'concurrency_limit_reached');
    expectStatus(await e.end(a.id), 200);
    const b = expectStatus(await e.openFor('b'), 201).data;
    expectStatus(await e.end(b.id), 200);
    expectError(await e.openFor('c'), 403, 'view_limit_reached');
    expectError(await e.openFor('a'), 403, 'view_limit_reached');
    const row = await t.ctx.db.selectFrom('entitlements').select('views_used').where('id', '=', e.entitlement.id).executeTakeFirstOrThrow();
    expect(row.views_used).toBe(2);
  });

  it('max_concurrent_sessions with reject_new: 409 concurrency_limit_reached until a session ends or lapses', async () => {
    const e = await entitled(t, { max_concurrent_sessions: 2, concurrency_policy: 'reject_new' });
    expectStatus(await e.openFor('a'), 201);
    expectStatus(await e.openFor('b'), 201);
    const res = await e.openFor('c');
    expectError(res, 409, 'concurrency_limit_reached');
    expect(res.body.error.type).toBe('invalid_request_error');
    advance(t, 91_000);
    expectStatus(await e.openFor('c'), 201);
    expect(await activeSessions(t, e.entitlement.id)).toEqual(['c']);
  });

  it('max_concurrent_sessions with replace_oldest: the new session opens, the oldest ends and its heartbeat gets 403 session_ended', async () => {
    const e = await entitled(t, { max_concurrent_sessions: 2, concurrency_policy: 'replace_oldest' });
    const a = expectStatus(await e.openFor('a'), 201).data;
    const b = expectStatus(await e.openFor('b'), 201).data;
    const c = expectStatus(await e.openFor('c'), 201).data;
    expectError(await e.heartbeat(a.id), 403, 'session_ended', { reason: 'replaced_by_newer_session' });
    expectStatus(await e.heartbeat(b.id), 200);
    expectStatus(await e.heartbeat(c.id), 200);
    expect(await activeSessions(t, e.entitlement.id)).toEqual(['b', 'c']);
  });

  it('replace_oldest is the default policy', async () => {
    const e = await entitled(t, { max_concurrent_sessions: 1 });
    const a = expectStatus(await e.openFor('a'), 201).data;
    expectStatus(await e.openFor('b'), 201);
    expect((await sessionRow(t, a.id)).ended_reason).toBe('replaced_by_newer_session');
  });
});
