import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { newEmail, signInByEmail } from '../identity/identity-fixtures';
import { markOrderPaid, releaseOrder } from '../../src/modules/ticketing/orders/order-transitions';
import { attendee, bookingBody, bookOk, bucketsOf, seedEvent, sk } from './booking-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

async function liveStream(tenant: Awaited<ReturnType<typeof t.tenant>>) {
  return expectStatus(await t.http().post('/v1/streams/live_streams').set(sk(tenant)).send({}), 201).data as { id: string };
}

describe('a paid order', () => {
  it('is paid at once when nothing is due: seats sold, tickets valid, stream granted per attendee, messages captured', async () => {
    const tenant = await t.tenant();
    const stream = await liveStream(tenant);
    const { event, ticketType } = await seedEvent(t, tenant, {
      capacity: 5,
      live_stream: stream.id,
      ticketTypes: [{ price: 0, stream_limits: { max_devices: 2 } }],
    });
    const guest = attendee();
    const { booking, payment } = await bookOk(t, tenant, event.id, { ...bookingBody(ticketType.id, 2), attendees: [guest, { ...attendee(), email: null }] });
    expect(payment).toEqual([]);
    expect(booking).toMatchObject({ status: 'paid', amount_total: 0, amount_due: 0, expires_at: null });
    expect(booking.attendees.map((a: any) => a.ticket.status)).toEqual(['valid', 'valid']);
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 0, sold: 2 } });

    const ents = expectStatus(await t.http().get('/v1/access/entitlements').query({ limit: 10 }).set(sk(tenant)), 200).data;
    expect(ents).toHaveLength(2);
    expect(ents[1]).toMatchObject({ source: 'ticket', source_ref: booking.code, resource: { type: 'ls', id: stream.id }, status: 'active' });
    expect(ents[1].limits.max_devices).toBe(2);
    expect(new Date(ents[1].ends_at).getTime()).toBe(new Date(event.ends_at).getTime() + 6 * 3600_000);
    const customers = expectStatus(await t.http().get('/v1/customers').query({ email: guest.email }).set(sk(tenant)), 200).data;
    expect(ents.map((e: any) => e.customer)).toContain(customers[0].id);

    const messages = expectStatus(await t.http().get('/v1/messages').query({ related: booking.id }).set(sk(tenant)), 200).data;
    expect(messages.map((m: any) => m.template).sort()).toEqual(['order_receipt', 'ticket', 'ticket']);
    expect(messages.every((m: any) => m.status === 'captured')).toBe(true);
    const ticketMessage = messages.find((m: any) => m.template === 'ticket' && m.to === guest.email);
    expect(ticketMessage.body).toMatch(/Ticket code: [A-HJ-NP-Z2-9]{32}/);

    const paid = expectStatus(await t.http().get('/v1/events').query({ type: 'events.order.paid' }).set(sk(tenant)), 200).data;
    expect(paid[0]?.data.object).toMatchObject({ id: booking.id, status: 'paid' });
  });

  it('gives attendees sharing an email one customer (an existing one) and one entitlement, and each new email its own', async () => {
    const tenant = await t.tenant();
    const stream = await liveStream(tenant);
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 10, live_stream: stream.id, ticketTypes: [{ price: 0, max_per_order: 5 }] });
    const shared = attendee();
    const existing = expectStatus(await t.http().post('/v1/customers').set(sk(tenant)).send({ email: shared.email, name: 'Known' }), 201).data;
    const fresh = attendee();
    const { booking } = await bookOk(t, tenant, event.id, {
      ...bookingBody(ticketType.id, 3),
      attendees: [shared, { ...attendee(), email: shared.email.toUpperCase() }, fresh],
    });
    expect(booking.status).toBe('paid');
    const tickets = await t.ctx.db.selectFrom('tickets').selectAll().where('order_id', '=', booking.id).orderBy('position').execute();
    expect(tickets.map((x) => x.status)).toEqual(['valid', 'valid', 'valid']);
    expect(tickets[0]!.customer_id).toBe(existing.id);
    expect(tickets[1]!.customer_id).toBe(existing.id);
    expect(tickets[2]!.customer_id).not.toBe(existing.id);
    expect(tickets[0]!.entitlement_id).not.toBeNull();
    expect(tickets[1]!.entitlement_id).toBe(tickets[0]!.entitlement_id);
    expect(tickets[2]!.entitlement_id).not.toBe(tickets[0]!.entitlement_id);
    const made = expectStatus(await t.http().get('/v1/customers').query({ email: fresh.email }).set(sk(tenant)), 200).data;
    expect(made.map((c: any) => c.id)).toEqual([tickets[2]!.customer_id]);
    const ents = expectStatus(await t.http().get('/v1/access/entitlements').query({ limit: 10 }).set(sk(tenant)), 200).data;
    expect(ents.map((e: any) => e.id).sort()).toEqual([tickets[0]!.entitlement_id, tickets[2]!.entitlement_id].sort());
    const granted = expectStatus(await t.http().get('/v1/events').query({ type: 'access.entitlement.granted' }).set(sk(tenant)), 200).data;
    expect(granted.map((e: any) => e.data.object.id).sort()).toEqual(ents.map((e: any) => e.id).sort());
  });

  it('markOrderPaid moves held seats to sold once; releaseOrder gives them back and revokes the stream', async () => {
    const tenant = await t.tenant();
    const stream = await liveStream(tenant);
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 5, live_stream: stream.id, ticketTypes: [{ price: 1500, quantity: 3 }] });
    const { booking } = await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 2));
    const scope = { tenantId: tenant.tenant.id, livemode: false };
    const [first, second] = await Promise.all([0, 1].map(() => t.ctx.db.transaction().execute((trx) => markOrderPaid(trx, t.ctx, scope, booking.id))));
    expect([first!.outcome, second!.outcome].sort()).toEqual(['not_payable', 'paid']);
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`t:${ticketType.id}`]: { held: 0, sold: 2 } });
    const order = expectStatus(await t.http().get(`/v1/orders/${booking.id}`).set(sk(tenant)), 200).data;
    expect(order).toMatchObject({ status: 'paid', amount_paid: 3000, amount_due: 0 });
    expect(expectStatus(await t.http().get('/v1/access/entitlements').query({ status: 'active' }).set(sk(tenant)), 200).data).toHaveLength(2);

    await t.ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('orders').set({ status: 'refunded' }).where('id', '=', booking.id).execute();
      await releaseOrder(trx, t.ctx, scope, booking.id);
      await releaseOrder(trx, t.ctx, scope, booking.id);
    });
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`t:${ticketType.id}`]: { held: 0, sold: 0 } });
    const after = expectStatus(await t.http().get(`/v1/orders/${booking.id}`).set(sk(tenant)), 200).data;
    expect(after.attendees.map((a: any) => a.ticket.status)).toEqual(['void', 'void']);
    expect(expectStatus(await t.http().get('/v1/access/entitlements').query({ status: 'revoked' }).set(sk(tenant)), 200).data).toHaveLength(2);
  });
});

describe('the ticket that opens the stream', () => {
  it('lets the signed-in attendee open a playback session with a customer token, until the order is released', async () => {
    const tenant = await t.tenant();
    const stream = await liveStream(tenant);
    const { event, ticketType } = await seedEvent(t, tenant, { live_stream: stream.id, ticketTypes: [{ price: 0 }] });
    const email = newEmail();
    const signedIn = await signInByEmail(t, tenant, email);
    const pkHeader = { 'Svc-Publishable-Key': tenant.keys.test.publishable };
    const tokenFor = async () =>
      expectStatus(await t.http().post('/auth/v1/customer_token').set(pkHeader).set(bearer(signedIn.access_token)), 200).data.token as string;
    const openSession = async () =>
      t.http().post('/v1/access/sessions').set(pkHeader).set(bearer(await tokenFor())).send({ resource: stream.id, device_id: 'phone' });
    expectError(await openSession(), 403, 'access_denied');
    const { booking } = await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 1, { attendees: [{ ...attendee(), email }] }));
    expectStatus(await openSession(), 201);
    await t.ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('orders').set({ status: 'refunded' }).where('id', '=', booking.id).execute();
      await releaseOrder(trx, t.ctx, { tenantId: tenant.tenant.id, livemode: false }, booking.id);
    });
    expectError(await openSession(), 403, 'access_denied');
  });
});
