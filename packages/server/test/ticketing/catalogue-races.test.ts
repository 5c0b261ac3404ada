import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { eventBody, makeEvent, makeOrganization, makeTicketType, sk } from './catalogue-fixtures';

const t = useTestServer();

describe('concurrent catalogue writes', () => {
  it('publishing at once publishes once and sends one event', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const event = await makeEvent(t, tenant, org.id);
    await makeTicketType(t, tenant, event.id);
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.http().post(`/v1/organizer/events/${event.id}/publish`).set(sk(tenant))));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    const log = expectStatus(await t.http().get('/v1/events?type=events.event.published').set(sk(tenant)), 200).data;
    expect(log).toHaveLength(1);
  });

  it('events made at once from one name get distinct slugs', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.http().post('/v1/organizer/events').set(sk(tenant)).send(eventBody(org.id, { name: 'Same Name' }))));
    const slugs = answers.map((a) => expectStatus(a, 201).data.slug as string);
    expect(new Set(slugs).size).toBe(5);
    expect(slugs).toContain('same-name');
  });

  it('a capacity change racing holds never leaves a bucket over capacity', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const event = await makeEvent(t, tenant, org.id, { capacity: 20 });
    const id = `e:${event.id}`;
    const hold = () =>
      t.ctx.db
        .updateTable('capacity_buckets')
        .set((eb) => ({ held: eb('held', '+', 1) }))
        .where('id', '=', id)
        .where((eb) => eb.or([eb('capacity', 'is', null), eb(eb(eb('held', '+', eb.ref('sold')), '+', 1), '<=', eb.ref('capacity'))]))
        .executeTakeFirst();
    const [holds, change] = await Promise.all([
      Promise.all(Array.from({ length: 15 }, hold)),
      t.http().patch(`/v1/organizer/events/${event.id}`).set(sk(tenant)).send({ capacity: 10 }),
    ]);
    const row = await t.ctx.db.selectFrom('capacity_buckets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const held = holds.filter((h) => Number(h.numUpdatedRows) === 1).length;
    expect(row.held).toBe(held);
    if (change.status === 200) expect(row.capacity).toBe(10);
    else expect(change.status).toBe(422);
    expect(row.held).toBeLessThanOrEqual(row.capacity!);
  });
});
