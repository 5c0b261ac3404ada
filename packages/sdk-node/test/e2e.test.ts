import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, PermissionError, Svc, SvcOperator, type SvcError } from '../src';
import { startServer, type RunningServer } from '@svc/server/testing';

let server: RunningServer;
let svc: Svc;
beforeAll(async () => {
  server = await startServer();
  const { keys } = await server.createTenant();
  svc = new Svc({ apiKey: keys.test.secret, baseUrl: server.url });
}, 60_000);
afterAll(() => server?.stop());

describe('against a running server', () => {
  it('creates, reads, expands and revokes keys', async () => {
    const created = await svc.keys.create({ type: 'restricted', scopes: ['platform:read'], name: 'Reporting' });
    expect(created.secret).toMatch(/^rk_test_/);
    const read = await svc.keys.retrieve({ id: created.id, expand: ['created_by'] });
    expect(read.secret).toBeUndefined();
    expect(read.created_by?.object).toBe('api_key');
    expect(read.created_by?.type).toBe('secret');

    const restricted = new Svc({ apiKey: created.secret!, baseUrl: server.url });
    await expect(restricted.keys.list()).resolves.toBeTruthy();
    const refused = (await restricted.keys.create({ type: 'publishable' }).catch((e) => e)) as SvcError;
    expect(refused).toBeInstanceOf(PermissionError);
    expect(refused.code).toBe('missing_scope');
    expect(refused.requestId).toMatch(/^req_/);

    const revoked = await svc.keys.revoke({ id: created.id });
    expect(revoked.status).toBe('revoked');
    const after = (await restricted.keys.list().catch((e) => e)) as SvcError;
    expect(after).toBeInstanceOf(AuthenticationError);
    expect(after.code).toBe('api_key_revoked');
  });

  it('walks every page of a list, keeping the page size', async () => {
    for (let i = 0; i < 5; i++) await svc.keys.create({ type: 'publishable', name: `p${i}` });
    const first = await svc.keys.list({ per_page: 2 });
    expect(first.data).toHaveLength(2);
    const all: string[] = [];
    for await (const key of svc.keys.list({ per_page: 2 })) all.push(key.id);
    const total = (first.meta as { pagination: { total: number } }).pagination.total;
    expect(all).toHaveLength(total);
    expect(new Set(all).size).toBe(total);
  });

  it('walks cursor pages forward and backward with the caller\'s limit and filters', async () => {
    const operator = new SvcOperator({ operatorToken: server.operatorToken, baseUrl: server.url });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { tenant } = await operator.operator.createTenant({ name: `Paged ${i}`, metadata: { batch: 'sdk' } });
      made.push(tenant.id);
    }
    const newestFirst = [...made].reverse();
    const forward: string[] = [];
    for await (const t of operator.operator.listTenants({ limit: 2, metadata: { batch: 'sdk' } })) forward.push(t.id);
    expect(forward).toEqual(newestFirst);

    const backward: string[] = [];
    for await (const t of operator.operator.listTenants({ limit: 2, ending_before: made[0] }).backward()) backward.push(t.id);
    expect(backward).toEqual(made.slice(1));
  });

  it('replays a retried create through its idempotency key', async () => {
    const a = await svc.keys.create({ type: 'publishable', name: 'once' }, { idempotencyKey: 'sdk-once-1' });
    const b = await svc.keys.create({ type: 'publishable', name: 'once' }, { idempotencyKey: 'sdk-once-1' });
    expect(b.id).toBe(a.id);
    expect(b.secret).toBe(a.secret);
  });
});
