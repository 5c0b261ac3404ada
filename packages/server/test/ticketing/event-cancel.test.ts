import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { jobsRan } from '../kit/jobs';
import { cancelEventOrders, cancelEventOrdersJob, cancelOrdersOfEvent } from '../../src/modules/ticketing/event-cancel/cancel-event-orders.job';
import { bookingBody, bookOk, bucketsOf, seedEvent, sk, type Tenant } from './booking-fixtures';
import { card, eventsOf, getOrder, pay, sessionOf } from './payments-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

beforeAll(async () => {
  // The orders of a cancelled event are settled by a real pg-boss job here.
  t.ctx.jobs.register(cancelEventOrdersJob(t.ctx));
  await t.ctx.jobs.start();
});

const cancel = (tenant: Tenant, event: string) => t.http().post(`/v1/organizer/events/${event}/cancel`).set(sk(tenant)).send({});

describe('POST /v1/organizer/events/{event}/cancel', () => {
  it('cancels pending orders and refunds paid ones in full, each with its own refund; seats and streams are released', async () => {
    const tenant = await t.tenant();
    const stream = expectStatus(await t.http().post('/v1/streams/live_streams').set(sk(tenant)).send({}), 201).data;
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 20, live_stream: stream.id, ticketTypes: [{ price: 1500 }] });
    const paid = [];
    for (let i = 0; i < 3; i++) {
      const b = await bookOk(t, tenant, event.id, bookingBody(ticketType.id, 1));
      expectStatus(await pay(t, sessionOf(b.payment), card('4242424242424242')), 200);
      paid.push(b.booking);
    }
    const pending = (await bookOk(t, tenant, event.id, bookingBody(ticketType.id, 2))).booking;
    const partial = paid[2]!;
    expectStatus(await t.http().post(`/v1/orders/${partial.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', 'part').send({ amount: 500 }), 201);

    const answer = expectStatus(await cancel(tenant, event.slug), 200).data;
    expect(answer).toMatchObject({ id: event.id, object: 'ticketed_event', status: 'cancelled' });
    expect(answer.cancelled_at).not.toBeNull();
    await jobsRan(t, cancelEventOrders, { event_id: event.id });

    expect(await getOrder(t, tenant, pending.id)).toMatchObject({ status: 'cancelled' });
    for (const o of paid) expect(await getOrder(t, tenant, o.id)).toMatchObject({ status: 'refunded', amount_refunded: 1500 });
    const refunds = await t.ctx.db.selectFrom('refunds').selectAll().where('order_id', 'in', paid.map((o) => o.id)).where('reason', '=', 'event_cancelled').execute();
    expect(refunds.map((r) => r.amount).sort()).toEqual([1000, 1500, 1500]);
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 0, sold: 0 } });
    expect(expectStatus(await t.http().get('/v1/access/entitlements').query({ status: 'active' }).set(sk(tenant)), 200).data).toHaveLength(0);

    const cancelled = await eventsOf(t, tenant, 'events.event.cancelled');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.data.object).toMatchObject({ id: event.id, status: 'cancelled' });
    expect(await eventsOf(t, tenant, 'events.order.refunded')).toHaveLength(3);
    expect((await eventsOf(t, tenant, 'events.order.cancelled')).map((e) => e.data.object.id)).toEqual([pending.id]);

    // The job run again (a retry, a lost process) finds nothing left to do.
    expect(await cancelOrdersOfEvent(t.ctx, { tenantId: tenant.tenant.id, livemode: false }, event.id)).toBe(0);
    expect(await t.ctx.db.selectFrom('refunds').select('id').where('order_id', 'in', paid.map((o) => o.id)).execute()).toHaveLength(4);
    // Again: the event as it is, no second event or job.
    expect(expectStatus(await cancel(tenant, event.id), 200).data.status).toBe('cancelled');
    expect(await eventsOf(t, tenant, 'events.event.cancelled')).toHaveLength(1);
  });

  it('works through an event\'s orders in pieces, each piece after the last id of the one before', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 20, ticketTypes: [{ price: 1500 }] });
    const orders = [];
    for (let i = 0; i < 7; i++) orders.push((await bookOk(t, tenant, event.id, bookingBody(ticketType.id, 1))).booking);
    // Cancelled underneath the route, so that no job runs: the walk is called by hand, three orders at a time.
    await t.ctx.db.updateTable('ticketed_events').set({ status: 'cancelled', cancelled_at: new Date() }).where('id', '=', event.id).execute();
    expect(await cancelOrdersOfEvent(t.ctx, { tenantId: tenant.tenant.id, livemode: false }, event.id, 3)).toBe(7);
    for (const o of orders) expect(await getOrder(t, tenant, o.id)).toMatchObject({ status: 'cancelled' });
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 0, sold: 0 } });
  });

  it('leaves a paid order whose refund the network refuses paid, beside its failed refund, and does not try again', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, { ticketTypes: [{ price: 1500 }] });
    const b = await bookOk(t, tenant, event.id, bookingBody(ticketType.id, 1));
    expectStatus(await pay(t, sessionOf(b.payment), card('4000000000005126')), 200);
    expectStatus(await cancel(tenant, event.id), 200);
    await jobsRan(t, cancelEventOrders, { event_id: event.id });
    expect(await getOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'paid', amount_refunded: 0 });
    expect(await cancelOrdersOfEvent(t.ctx, { tenantId: tenant.tenant.id, livemode: false }, event.id)).toBe(0);
    const refunds = await t.ctx.db.selectFrom('refunds').select(['status', 'reason']).where('order_id', '=', b.booking.id).execute();
    expect(refunds).toEqual([{ status: 'failed', reason: 'event_cancelled' }]);
    expect((await eventsOf(t, tenant, 'payments.refund.failed'))).toHaveLength(1);
  });

  it('a checkout of a cancelled event cannot be paid, and it takes no more bookings', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, { ticketTypes: [{ price: 1500 }] });
    const b = await bookOk(t, tenant, event.id, bookingBody(ticketType.id, 1));
    expectStatus(await cancel(tenant, event.id), 200);
    expectError(await pay(t, sessionOf(b.payment), card('4242424242424242')), 409, 'order_not_payable');
    const again = await t.http().post(`/v1/events/${event.id}/book`).set({ 'Svc-Publishable-Key': tenant.keys.test.publishable }).send(bookingBody(ticketType.id, 1));
    expect(again.status).toBeGreaterThanOrEqual(400);
  });

  it('answers 404 for an unknown event or another tenant\'s, 409 for a completed one', async () => {
    const tenant = await t.tenant();
    expectError(await cancel(tenant, 'no-such-event'), 404, 'resource_not_found');
    const { event } = await seedEvent(t, tenant, { status: 'completed' });
    expectError(await cancel(tenant, event.id), 409, 'invalid_state_transition');
    const other = await t.tenant('Other');
    expectError(await cancel(other, event.id), 404, 'resource_not_found');
  });
});
