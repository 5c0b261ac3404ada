import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { bucket, makeEvent, makeOrganization, makeTicketType, sk, type Tenant } from './catalogue-fixtures';

const t = useTestServer();

async function setup() {
  const tenant = await t.tenant();
  const org = await makeOrganization(t, tenant);
  const event = await makeEvent(t, tenant, org.id);
  return { tenant, org, event };
}
const post = (tenant: Tenant, event: string, body: Record<string, unknown>) =>
  t.http().post(`/v1/organizer/events/${event}/ticket_types`).set(sk(tenant)).send(body);
const patch = (tenant: Tenant, event: string, id: string, body: Record<string, unknown>) =>
  t.http().patch(`/v1/organizer/events/${event}/ticket_types/${id}`).set(sk(tenant)).send(body);

describe('ticket types', () => {
  it('creates one with the defaults, uuid ids for its extra fields, and its ticket type bucket', async () => {
    const { tenant, event } = await setup();
    const body = {
      name: 'VIP',
      pricing_mode: 'fixed',
      price: 500_000,
      quantity: 50,
      extra_fields: [
        { name: 'T-shirt size', type: 'select', required: true, options: ['S', 'M', 'L'] },
        { name: 'Company', type: 'text' },
      ],
      stream_limits: { max_devices: 2 },
    };
    const tt = expectStatus(await post(tenant, event.slug, body), 201).data;
    expect(tt).toMatchObject({
      object: 'ticket_type',
      event: event.id,
      pricing_mode: 'fixed',
      price: 500_000,
      quantity: 50,
      min_per_order: 1,
      max_per_order: 10,
      admits: 1,
      allow_pay_later: false,
      requires_approval: false,
      status: 'active',
      sale_starts_at: null,
      stream_limits: { max_devices: 2 },
    });
    expect(tt.extra_fields).toEqual([
      { id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'T-shirt size', type: 'select', required: true, options: ['S', 'M', 'L'] },
      { id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Company', type: 'text', required: false, options: null },
    ]);
    expect(await bucket(t, `t:${tt.id}`)).toMatchObject({ capacity: 50, ticket_type_id: tt.id, event_id: event.id });
    // An edit keeps the id of a field of the same name.
    const edited = expectStatus(await patch(tenant, event.id, tt.id, { extra_fields: [{ name: 'Company', type: 'text', required: true }] }), 200).data;
    expect(edited.extra_fields).toEqual([{ ...tt.extra_fields[1], required: true }]);
    const list = expectStatus(await t.http().get(`/v1/organizer/events/${event.id}/ticket_types`).set(sk(tenant)), 200);
    expect(list.data.map((x: { id: string }) => x.id)).toEqual([tt.id]);
  });

  it('checks prices, order sizes, sale windows and extra fields', async () => {
    const { tenant, event } = await setup();
    const bad = async (body: Record<string, unknown>, param: string) =>
      expectError(await post(tenant, event.id, { name: 'X', ...body }), 422, 'validation_failed', { param });
    await bad({ pricing_mode: 'fixed' }, 'price');
    await bad({ pricing_mode: 'fixed', price: -1 }, 'price');
    await bad({ pricing_mode: 'fixed', price: 3_000_000_000 }, 'price');
    await bad({ pricing_mode: 'fixed', price: 1, quantity: 2 ** 31 }, 'quantity');
    await bad({ pricing_mode: 'name_your_price' }, 'flexipay_min_price');
    await bad({ pricing_mode: 'name_your_price', flexipay_min_price: 500, flexipay_max_price: 100 }, 'flexipay_max_price');
    await bad({ pricing_mode: 'bogus', price: 1 }, 'pricing_mode');
    await bad({ pricing_mode: 'fixed', price: 1, min_per_order: 5, max_per_order: 2 }, 'max_per_order');
    await bad({ pricing_mode: 'fixed', price: 1, sale_starts_at: '2030-01-02T00:00:00Z', sale_ends_at: '2030-01-01T00:00:00Z' }, 'sale_ends_at');
    await bad({ pricing_mode: 'fixed', price: 1, extra_fields: [{ name: 'Size', type: 'select' }] }, 'extra_fields.0.options');
    await bad({ pricing_mode: 'fixed', price: 1, extra_fields: [{ name: 'Note', type: 'text', options: ['a'] }] }, 'extra_fields.0.options');
    await bad({ pricing_mode: 'fixed', price: 1, extra_fields: [{ name: 'A', type: 'text' }, { name: 'A', type: 'checkbox' }] }, 'extra_fields.1.name');
    await bad({ pricing_mode: 'fixed', price: 1, admits: 0 }, 'admits');
    const nyp = expectStatus(await post(tenant, event.id, { name: 'Pay what you like', pricing_mode: 'name_your_price', flexipay_min_price: 100, flexipay_max_price: 100 }), 201).data;
    expect(nyp).toMatchObject({ flexipay_min_price: 100, flexipay_max_price: 100, price: null });
    // The rules hold for the ticket type as an update leaves it.
    expectError(await patch(tenant, event.id, nyp.id, { flexipay_max_price: 50 }), 422, 'validation_failed', { param: 'flexipay_max_price' });
    expectError(await patch(tenant, event.id, nyp.id, { pricing_mode: 'fixed' }), 422, 'validation_failed', { param: 'price' });
    expect(expectStatus(await patch(tenant, event.id, nyp.id, { pricing_mode: 'fixed', price: 0, status: 'paused' }), 200).data).toMatchObject({ price: 0, status: 'paused' });
  });

  it('keeps the quantity at or above the tickets held and sold', async () => {
    const { tenant, event } = await setup();
    const tt = await makeTicketType(t, tenant, event.id, { quantity: 10 });
    await t.ctx.db.updateTable('capacity_buckets').set({ held: 2, sold: 5 }).where('id', '=', `t:${tt.id}`).execute();
    expectError(await patch(tenant, event.id, tt.id, { quantity: 6 }), 422, 'validation_failed', { param: 'quantity' });
    expect(await bucket(t, `t:${tt.id}`)).toMatchObject({ capacity: 10 });
    expectStatus(await patch(tenant, event.id, tt.id, { quantity: 7 }), 200);
    expect(await bucket(t, `t:${tt.id}`)).toMatchObject({ capacity: 7 });
  });

  it('answers 404 for an unknown ticket type or one of another event', async () => {
    const { tenant, org, event } = await setup();
    const other = await makeEvent(t, tenant, org.id);
    const tt = await makeTicketType(t, tenant, other.id);
    expectError(await patch(tenant, event.id, tt.id, { name: 'x' }), 404, 'resource_not_found');
    expectError(await patch(tenant, event.id, 'not-a-uuid', { name: 'x' }), 404, 'resource_not_found');
    expectError(await post(tenant, 'no-such-event', { name: 'x', pricing_mode: 'fixed', price: 1 }), 404, 'resource_not_found');
  });
});

describe('slots', () => {
  it('make ticket type quantities apply per slot and keep their own bucket', async () => {
    const { tenant, event } = await setup();
    const tt = await makeTicketType(t, tenant, event.id, { quantity: 20 });
    expect(await bucket(t, `t:${tt.id}`)).toMatchObject({ capacity: 20 });
    const slots = `/v1/organizer/events/${event.id}/slots`;
    const start = new Date(Date.now() + 86_400_000);
    const body = { starts_at: start.toISOString(), ends_at: new Date(start.getTime() + 3_600_000).toISOString(), capacity: 30 };
    const slot = expectStatus(await t.http().post(slots).set(sk(tenant)).send(body), 201).data;
    expect(slot).toMatchObject({ object: 'event_slot', event: event.id, capacity: 30 });
    expect(await bucket(t, `s:${slot.id}`)).toMatchObject({ capacity: 30, slot_id: slot.id });
    expect(await bucket(t, `t:${tt.id}`)).toMatchObject({ capacity: null });
    // A ticket type added later is per slot from the start; a quantity change reaches the ticket type's slot buckets.
    const later = await makeTicketType(t, tenant, event.id, { quantity: 5 });
    expect(await bucket(t, `t:${later.id}`)).toMatchObject({ capacity: null });
    await t.ctx.db
      .insertInto('capacity_buckets')
      .values({ id: `ts:${later.id}:${slot.id}`, tenant_id: tenant.tenant.id, livemode: false, event_id: event.id, slot_id: slot.id, ticket_type_id: later.id, capacity: 5, held: 4 })
      .execute();
    expectError(await patch(tenant, event.id, later.id, { quantity: 3 }), 422, 'validation_failed', { param: 'quantity' });
    expectStatus(await patch(tenant, event.id, later.id, { quantity: 8 }), 200);
    expect(await bucket(t, `ts:${later.id}:${slot.id}`)).toMatchObject({ capacity: 8 });
    expect(expectStatus(await t.http().get(slots).set(sk(tenant)), 200).data.map((s: { id: string }) => s.id)).toEqual([slot.id]);
    expectError(await t.http().post(slots).set(sk(tenant)).send({ ...body, ends_at: body.starts_at }), 422, 'validation_failed', { param: 'ends_at' });
  });
});
