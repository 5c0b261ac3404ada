import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { attendee, bookOk, bookingBody, seedEvent, sk } from './booking-fixtures';
import { card, getOrder, pay, pendingBooking } from './payments-fixtures';
import { attendeesOfOrder, attendeesPath, listAll, requireApproval } from './attendees-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

const guest = (ticketTypeId: string, extra: Record<string, unknown> = {}) => ({
  first_name: 'Amina',
  last_name: 'Kariuki',
  email: `amina-${Date.now()}-${Math.random()}@example.test`,
  ticket_type_id: ticketTypeId,
  ...extra,
});

describe('organizer attendees', () => {
  it('adds a complimentary guest: a paid order with total 0 that takes a seat, invite and ticket queued', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 1 });
    const added = expectStatus(await t.http().post(attendeesPath(event.slug)).set(sk(tenant)).send(guest(ticketType.id)), 201).data;
    expect(added).toMatchObject({ status: 'confirmed', invite_status: 'queued', ticket_delivery_status: 'queued' });
    expect(added.id).toMatch(/^[0-9a-f-]{36}$/);

    const detail = expectStatus(await t.http().get(`${attendeesPath(event.slug)}/${added.id}`).set(sk(tenant)), 200).data;
    expect(detail).toMatchObject({ id: added.id, object: 'attendee', status: 'confirmed', comp: true, first_name: 'Amina', ticket: { status: 'valid' }, checkins: [] });
    const order = await getOrder(t, tenant, detail.order.id);
    expect(order).toMatchObject({ status: 'paid', amount_total: 0 });
    const bucket = await t.ctx.db.selectFrom('capacity_buckets').selectAll().where('id', '=', `e:${event.id}`).executeTakeFirstOrThrow();
    expect(bucket.sold).toBe(1);
    const messages = await t.ctx.db.selectFrom('messages').select(['template', 'related']).where(sql<boolean>`related @> array[${detail.ticket.id}]::text[]`).execute();
    expect(messages.map((m) => m.template).sort()).toEqual(['attendee_invite', 'ticket']);

    // The event is full now: a second guest takes no seat.
    expectError(await t.http().post(attendeesPath(event.slug)).set(sk(tenant)).send(guest(ticketType.id)), 409, 'sold_out');
  });

  it('leaves the invite not requested with send_invite false; refuses another event\'s ticket type and bad input', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant);
    const other = await seedEvent(t, tenant);
    const added = expectStatus(await t.http().post(attendeesPath(event.slug)).set(sk(tenant)).send(guest(ticketType.id, { send_invite: false })), 201).data;
    expect(added).toMatchObject({ status: 'confirmed', invite_status: 'not_requested', ticket_delivery_status: 'queued' });
    expectError(await t.http().post(attendeesPath(event.slug)).set(sk(tenant)).send(guest(other.ticketType.id)), 400, 'INVALID_TICKET');
    expectError(await t.http().post(attendeesPath(event.slug)).set(sk(tenant)).send({ first_name: 'A', ticket_type_id: ticketType.id }), 422, 'validation_failed');
    expectError(await t.http().post(attendeesPath('no-such-event')).set(sk(tenant)).send(guest(ticketType.id)), 404, 'resource_not_found');
    expect((await t.http().get(attendeesPath(event.slug))).status).toBe(401);
  });

  it('walks the review states: unpaid, pending review, approved, approved again, reject after approval', async () => {
    const tenant = await t.tenant();
    const b = await pendingBooking(t, tenant, {}, 1);
    await requireApproval(t, b.event.id);
    const [ticket] = await attendeesOfOrder(t, b.booking.id);
    const path = `${attendeesPath(b.event.slug)}/${ticket!.attendee_id}`;

    expect(expectStatus(await t.http().get(path).set(sk(tenant)), 200).data).toMatchObject({ status: 'pending', review_status: 'pending' });
    expectError(await t.http().post(`${path}/approve`).set(sk(tenant)), 422, 'PAYMENT_PENDING');
    expectStatus(await pay(t, b.session, card('4242424242424242')), 200);
    // Payment sent the ticket: its delivery is queued.
    expect(expectStatus(await t.http().get(path).set(sk(tenant)), 200).data).toMatchObject({ status: 'pending', review_status: 'pending', ticket_delivery_status: 'queued' });

    const approved = expectStatus(await t.http().post(`${path}/approve`).set(sk(tenant)), 200).data;
    expect(approved).toMatchObject({ status: 'confirmed', review_status: 'approved' });
    expect(approved.reviewed_at).not.toBeNull();
    expect(expectStatus(await t.http().post(`${path}/approve`).set(sk(tenant)), 200).data.review_status).toBe('approved');
    expectError(await t.http().post(`${path}/reject`).set(sk(tenant)).send({}), 409, 'INVALID_STATE');
  });

  it('rejects: refunds that attendee\'s share, voids the ticket, frees the seat; approve after reject is refused', async () => {
    const tenant = await t.tenant();
    const b = await pendingBooking(t, tenant, { capacity: 10 }, 2);
    await requireApproval(t, b.event.id);
    expectStatus(await pay(t, b.session, card('4242424242424242')), 200);
    const [first, second] = await attendeesOfOrder(t, b.booking.id);
    const path = (id: string) => `${attendeesPath(b.event.slug)}/${id}`;

    const rejected = expectStatus(await t.http().post(`${path(first!.attendee_id)}/reject`).set(sk(tenant)).send({ reason: 'Not on the list' }), 200).data;
    expect(rejected).toMatchObject({ status: 'cancelled', review_status: 'rejected', review_reason: 'Not on the list', ticket: { status: 'void' } });
    let order = await getOrder(t, tenant, b.booking.id);
    expect(order).toMatchObject({ status: 'partially_refunded', amount_paid: 3000, amount_refunded: 1500 });
    let bucket = await t.ctx.db.selectFrom('capacity_buckets').selectAll().where('id', '=', `e:${b.event.id}`).executeTakeFirstOrThrow();
    expect(bucket.sold).toBe(1);
    const ticketsSold = async () =>
      Number((await sql<{ n: string }>`select coalesce(sum(tickets_sold), 0) as n from event_daily_sales where event_id = ${b.event.id}::uuid`.execute(t.ctx.db)).rows[0]!.n);
    expect(await ticketsSold()).toBe(1);

    expect(expectStatus(await t.http().post(`${path(first!.attendee_id)}/reject`).set(sk(tenant)).send({}), 200).data.review_status).toBe('rejected');
    expectError(await t.http().post(`${path(first!.attendee_id)}/approve`).set(sk(tenant)), 409, 'INVALID_STATE');

    // The last attendee rejected: everything left is refunded and the order ends.
    expectStatus(await t.http().post(`${path(second!.attendee_id)}/reject`).set(sk(tenant)), 200);
    order = await getOrder(t, tenant, b.booking.id);
    expect(order).toMatchObject({ status: 'refunded', amount_refunded: 3000 });
    bucket = await t.ctx.db.selectFrom('capacity_buckets').selectAll().where('id', '=', `e:${b.event.id}`).executeTakeFirstOrThrow();
    expect(bucket.sold).toBe(0);
    expect(await ticketsSold()).toBe(0);
    const refunds = expectStatus(await t.http().get(`/v1/orders/${b.booking.id}/refunds`).set(sk(tenant)), 200).data;
    expect(refunds.map((r: any) => r.amount).sort()).toEqual([1500, 1500]);
  });

  it('rejecting one attendee takes their stream away and leaves the others\' in place', async () => {
    const tenant = await t.tenant();
    const stream = expectStatus(await t.http().post('/v1/streams/live_streams').set(sk(tenant)).send({}), 201).data;
    const b = await pendingBooking(t, tenant, { capacity: 10, live_stream: stream.id }, 2);
    await requireApproval(t, b.event.id);
    expectStatus(await pay(t, b.session, card('4242424242424242')), 200);
    const [first, second] = await attendeesOfOrder(t, b.booking.id);
    const entitlementOf = async (ticketId: string) => {
      const ticket = await t.ctx.db.selectFrom('tickets').select('entitlement_id').where('id', '=', ticketId).executeTakeFirstOrThrow();
      return t.ctx.db.selectFrom('entitlements').select(['id', 'status']).where('id', '=', ticket.entitlement_id!).executeTakeFirstOrThrow();
    };
    expect((await entitlementOf(first!.id)).status).toBe('active');
    expect((await entitlementOf(second!.id)).status).toBe('active');

    expectStatus(await t.http().post(`${attendeesPath(b.event.slug)}/${first!.attendee_id}/reject`).set(sk(tenant)).send({}), 200);
    expect((await entitlementOf(first!.id)).status).toBe('revoked');
    expect((await entitlementOf(second!.id)).status).toBe('active');
  });

  it('a rejection stands when the network refuses its refund; an ended order cannot be reviewed', async () => {
    const tenant = await t.tenant();
    const b = await pendingBooking(t, tenant, {}, 1);
    await requireApproval(t, b.event.id);
    expectStatus(await pay(t, b.session, card('4000000000005126')), 200);
    const [ticket] = await attendeesOfOrder(t, b.booking.id);
    const rejected = expectStatus(await t.http().post(`${attendeesPath(b.event.slug)}/${ticket!.attendee_id}/reject`).set(sk(tenant)), 200).data;
    expect(rejected).toMatchObject({ status: 'cancelled', review_status: 'rejected' });
    const refunds = expectStatus(await t.http().get(`/v1/orders/${b.booking.id}/refunds`).set(sk(tenant)), 200).data;
    expect(refunds).toMatchObject([{ amount: 1500, status: 'failed' }]);

    const expired = await pendingBooking(t, tenant, {}, 1);
    await requireApproval(t, expired.event.id);
    expectStatus(await t.http().post(`/v1/test_helpers/orders/${expired.booking.id}/expire`).set(sk(tenant)), 200);
    const [late] = await attendeesOfOrder(t, expired.booking.id);
    expectError(await t.http().post(`${attendeesPath(expired.event.slug)}/${late!.attendee_id}/approve`).set(sk(tenant)), 409, 'INVALID_STATE');
    expectError(await t.http().post(`${attendeesPath(expired.event.slug)}/${late!.attendee_id}/reject`).set(sk(tenant)), 409, 'INVALID_STATE');
  });

  it('rejecting the only attendee of an unpaid order cancels it', async () => {
    const tenant = await t.tenant();
    const b = await pendingBooking(t, tenant, {}, 1);
    await requireApproval(t, b.event.id);
    const [ticket] = await attendeesOfOrder(t, b.booking.id);
    expectStatus(await t.http().post(`${attendeesPath(b.event.slug)}/${ticket!.attendee_id}/reject`).set(sk(tenant)), 200);
    expect((await getOrder(t, tenant, b.booking.id)).status).toBe('cancelled');
  });

  it('lists with a summary per status and pages with next_cursor', async () => {
    const tenant = await t.tenant();
    const seeded = await seedEvent(t, tenant, { ticketTypes: [{ price: 1500 }] });
    const slug = seeded.event.slug;
    // confirmed: 2 comps; pending: one unpaid booking; cancelled: one expired booking.
    for (let i = 0; i < 2; i++) expectStatus(await t.http().post(attendeesPath(slug)).set(sk(tenant)).send(guest(seeded.ticketType.id)), 201);
    await bookOk(t, tenant, seeded.event.id, bookingBody(seeded.ticketType.id, 1));
    const expiring = await bookOk(t, tenant, seeded.event.id, bookingBody(seeded.ticketType.id, 1));
    expectStatus(await t.http().post(`/v1/test_helpers/orders/${expiring.booking.id}/expire`).set(sk(tenant)), 200);

    const first = await listAll(t, tenant, slug, { limit: 3 });
    expect(first.summary).toEqual({ all: 4, pending: 1, confirmed: 2, cancelled: 1 });
    expect(first.meta).toMatchObject({ has_more: true, limit: 3 });
    expect(first.data).toHaveLength(3);
    const second = await listAll(t, tenant, slug, { limit: 3, cursor: first.meta.next_cursor });
    expect(second.meta).toEqual({ next_cursor: null, has_more: false, limit: 3 });
    expect(new Set([...first.data, ...second.data].map((a) => a.id)).size).toBe(4);
    expect((await listAll(t, tenant, slug, { status: 'cancelled' })).data.map((a) => a.order.id)).toEqual([expiring.booking.id]);
    expectError(await t.http().get(attendeesPath(slug)).query({ cursor: 'bogus' }).set(sk(tenant)), 400, 'invalid_cursor');
  });

  it('resends: refused without email, pending approval or cancelled; a second resend within 5 minutes is 429', async () => {
    const tenant = await t.tenant();
    const seeded = await seedEvent(t, tenant, { ticketTypes: [{ price: 0 }] });
    const slug = seeded.event.slug;
    const noEmail = await bookOk(t, tenant, seeded.event.id, { ...bookingBody(seeded.ticketType.id, 1), attendees: [{ ...attendee(), email: null }] });
    const [bare] = await attendeesOfOrder(t, noEmail.booking.id);
    expectError(await t.http().post(`${attendeesPath(slug)}/${bare!.attendee_id}/resend`).set(sk(tenant)), 422, 'VALIDATION_ERROR');

    const added = expectStatus(await t.http().post(attendeesPath(slug)).set(sk(tenant)).send(guest(seeded.ticketType.id)), 201).data;
    const path = `${attendeesPath(slug)}/${added.id}`;
    const sent = expectStatus(await t.http().post(`${path}/resend`).set(sk(tenant)), 200);
    expect(sent).toMatchObject({ data: { sent: true } });
    expect(typeof sent.message).toBe('string');
    const again = await t.http().post(`${path}/resend`).set(sk(tenant));
    expectError(again, 429, 'TOO_MANY_REQUESTS');
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(300);

    await requireApproval(t, seeded.event.id);
    const waiting = await bookOk(t, tenant, seeded.event.id, bookingBody(seeded.ticketType.id, 1));
    const [w] = await attendeesOfOrder(t, waiting.booking.id);
    expectError(await t.http().post(`${attendeesPath(slug)}/${w!.attendee_id}/resend`).set(sk(tenant)), 422, 'VALIDATION_ERROR');
    expectStatus(await t.http().post(`${attendeesPath(slug)}/${w!.attendee_id}/reject`).set(sk(tenant)), 200);
    expectError(await t.http().post(`${attendeesPath(slug)}/${w!.attendee_id}/resend`).set(sk(tenant)), 422, 'VALIDATION_ERROR');
  });

  it('answers 404 for an attendee of another event or not a uuid', async () => {
    const tenant = await t.tenant();
    const a = await seedEvent(t, tenant);
    const b = await seedEvent(t, tenant);
    const added = expectStatus(await t.http().post(attendeesPath(a.event.slug)).set(sk(tenant)).send(guest(a.ticketType.id)), 201).data;
    expectError(await t.http().get(`${attendeesPath(b.event.slug)}/${added.id}`).set(sk(tenant)), 404, 'resource_not_found');
    expectError(await t.http().get(`${attendeesPath(a.event.slug)}/tkt_nope`).set(sk(tenant)), 404, 'resource_not_found');
    const other = await t.tenant();
    expectError(await t.http().get(`${attendeesPath(a.event.slug)}/${added.id}`).set(sk(other)), 404, 'resource_not_found');
  });
});
