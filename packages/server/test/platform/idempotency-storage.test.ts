import { sql } from 'kysely';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { purgeIdempotencyKeys, purgeIdempotencyKeysJob } from '../../src/jobs/purge-idempotency-keys.job';
import { JobQueue } from '../../src/jobs/queue';
import { bearer } from '../harness';
import { useIdempotencyServer } from './idempotency-fixtures';

const { t, newKey, storedAs, keyCount, tenantCount, createKey } = useIdempotencyServer();

describe('what is stored', () => {
  it('does not store a 422: the same key with a fixed body succeeds', async () => {
    const { tenant, keys } = await t.tenant();
    const key = newKey();
    const bad = await createKey(keys.test.secret, key, { type: 'publishable', name: '' });
    expect(bad.status).toBe(422);
    const fixed = await createKey(keys.test.secret, key, { type: 'publishable', name: 'Fixed' });
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(fixed.body.data.name).toBe('Fixed');
    expect(await keyCount(tenant.id)).toBe(3);
  });

  it('does not store a 422 thrown by the service either', async () => {
    const { keys } = await t.tenant();
    const key = newKey();
    const bad = await createKey(keys.test.secret, key, { type: 'restricted' });
    expect(bad.status).toBe(422);
    const fixed = await createKey(keys.test.secret, key, { type: 'restricted', scopes: ['platform:read'] });
    expect(fixed.status).toBe(201);
  });

  it('does not store a 500: the same request succeeds once the fault is gone', async () => {
    const key = newKey();
    const name = `Fault ${key}`;
    const send = () => t.http().post('/v1/operator/tenants').set(t.operator).set('Idempotency-Key', key).send({ name });
    await sql`alter table api_keys rename to api_keys_moved_away`.execute(t.ctx.db);
    let failed;
    try {
      failed = await send();
    } finally {
      await sql`alter table api_keys_moved_away rename to api_keys`.execute(t.ctx.db);
    }
    expect(failed.status).toBe(500);
    const retried = await send();
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await tenantCount(name)).toBe(1);
  });

  it('scopes keys to tenant and environment', async () => {
    const a = await t.tenant('A');
    const b = await t.tenant('B');
    const key = newKey();
    const body = { type: 'publishable' };
    const responses = [
      await createKey(a.keys.test.secret, key, body),
      await createKey(a.keys.live.secret, key, body),
      await createKey(b.keys.test.secret, key, body),
    ];
    for (const r of responses) {
      expect(r.status).toBe(201);
      expect(r.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(new Set(responses.map((r) => r.body.data.id)).size).toBe(3);
    expect(responses.map((r) => r.body.data.livemode)).toEqual([false, true, false]);
    expect(await keyCount(a.tenant.id, false)).toBe(3);
    expect(await keyCount(a.tenant.id, true)).toBe(3);
    expect(await keyCount(b.tenant.id, false)).toBe(3);
  });

  it('ignores the header on GET', async () => {
    const { keys } = await t.tenant();
    const res = await t.http().get('/v1/keys').set(bearer(keys.test.secret)).set('Idempotency-Key', 'x'.repeat(300));
    expect(res.status).toBe(200);
  });
});

describe('the header', () => {
  it('accepts 255 characters and refuses 256 with 400 idempotency_key_invalid', async () => {
    const { tenant, keys } = await t.tenant();
    const ok = await createKey(keys.test.secret, 'k'.repeat(255), { type: 'publishable' });
    expect(ok.status).toBe(201);
    const res = await createKey(keys.test.secret, 'k'.repeat(256), { type: 'publishable' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_key_invalid', param: 'Idempotency-Key' });
    expect(await keyCount(tenant.id)).toBe(3);
  });

  it('refuses an empty key', async () => {
    const { keys } = await t.tenant();
    const res = await createKey(keys.test.secret, '', { type: 'publishable' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('idempotency_key_invalid');
  });
});

describe('retention', () => {
  const age = (tenantId: string, key: string, hours: number) =>
    t.ctx.db
      .updateTable('idempotency_keys')
      .set({ created_at: sql<Date>`now() - make_interval(hours => ${hours})` })
      .where('tenant_id', '=', tenantId)
      .where('key', 'like', storedAs(key))
      .execute();

  it('does not replay a response older than 24 hours', async () => {
    const { tenant, keys } = await t.tenant();
    const key = newKey();
    const body = { type: 'publishable' };
    const first = await createKey(keys.test.secret, key, body);
    await age(tenant.id, key, 25);
    const again = await createKey(keys.test.secret, key, body);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.data.id).not.toBe(first.body.data.id);
    expect(await keyCount(tenant.id)).toBe(4);
    // The new answer is the one now stored.
    const third = await createKey(keys.test.secret, key, body);
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(third.body.data.id).toBe(again.body.data.id);
  });

  it('still replays a response just under 24 hours old', async () => {
    const { tenant, keys } = await t.tenant();
    const key = newKey();
    const body = { type: 'publishable' };
    await createKey(keys.test.secret, key, body);
    await age(tenant.id, key, 23);
    const again = await createKey(keys.test.secret, key, body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('purgeIdempotencyKeys deletes stored responses older than 24 hours and keeps the rest', async () => {
    const { tenant, keys } = await t.tenant();
    const [stale, fresh] = [newKey(), newKey()];
    await createKey(keys.test.secret, stale, { type: 'publishable' });
    await createKey(keys.test.secret, fresh, { type: 'publishable' });
    await age(tenant.id, stale, 25);

    expect(await purgeIdempotencyKeys(t.ctx.db)).toBeGreaterThanOrEqual(1);
    const left = await t.ctx.db.selectFrom('idempotency_keys').select('key').where('tenant_id', '=', tenant.id).execute();
    expect(left.map((r) => (JSON.parse(r.key) as string[]).at(-1))).toEqual([fresh]);
    expect(await purgeIdempotencyKeys(t.ctx.db)).toBe(0);
  });
});

describe('the purge job', () => {
  it('is registered with the job queue, scheduled hourly, and runs', async () => {
    const queue = new JobQueue(t.databaseUrl, pino({ level: 'silent' }));
    const job = purgeIdempotencyKeysJob(t.ctx.db);
    queue.register(job);
    await queue.start();
    try {
      const schedules = await queue.pgBoss.getSchedules();
      const schedule = schedules.find((s) => s.name === 'purge-idempotency-keys');
      expect(schedule).toMatchObject({ name: 'purge-idempotency-keys', cron: job.schedule, timezone: 'UTC' });
      expect(job.schedule!.split(' ')).toHaveLength(5);

      // A sent job reaches the handler, which purges.
      const { tenant, keys } = await t.tenant();
      const stale = newKey();
      await createKey(keys.test.secret, stale, { type: 'publishable' });
      await t.ctx.db
        .updateTable('idempotency_keys')
        .set({ created_at: sql<Date>`now() - interval '25 hours'` })
        .where('tenant_id', '=', tenant.id)
        .execute();
      expect(await queue.send(job, {})).toBeTruthy();
      const deadline = Date.now() + 20_000;
      let remaining = 1;
      while (remaining > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        remaining = (await t.ctx.db.selectFrom('idempotency_keys').select('key').where('tenant_id', '=', tenant.id).execute()).length;
      }
      expect(remaining).toBe(0);
    } finally {
      await queue.stop();
    }
    // Stopping twice is harmless.
    await queue.stop();
  });
});
