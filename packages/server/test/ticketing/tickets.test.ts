import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { advance, newEmail, signInByEmail } from '../identity/identity-fixtures';
import { attendee, bookAs, bookingBody, bookOk, seedEvent, sk } from './booking-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

describe('tickets', () => {
  it('gives a signed-in attendee their tickets with secrets, once paid; secrets are unique and stored hashed', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, { ticketTypes: [{ price: 0 }] });
    const email = newEmail();
    const session = await signInByEmail(t, tenant, email);
    const { booking } = await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 2, { attendees: [{ ...attendee(), email }, attendee()] }));
    const mine = expectStatus(await t.http().get('/v1/attendee/tickets').set(bearer(session.access_token)), 200);
    expect(mine.data).toHaveLength(1);
    const ticket = mine.data[0];
    expect(ticket).toMatchObject({ object: 'ticket', order: booking.id, order_code: booking.code, event: event.id, status: 'valid', customer: session.user.customer });
    expect(ticket.id).toBe(booking.attendees[0].ticket.id);
    expect(ticket.secret).toMatch(/^[A-HJ-NP-Z2-9]{32}$/);
    const row = await t.ctx.db.selectFrom('tickets').selectAll().where('id', '=', ticket.id).executeTakeFirstOrThrow();
    expect(row.secret_hash).not.toContain(ticket.secret);
    expect(row.secret_sealed).not.toContain(ticket.secret);
    const hashes = await t.ctx.db.selectFrom('tickets').select('secret_hash').where('tenant_id', '=', tenant.tenant.id).execute();
    expect(new Set(hashes.map((h) => h.secret_hash)).size).toBe(hashes.length);
    // A person with no tickets sees none; keys and anonymous callers are refused.
    advance(t, 61_000);
    const other = await signInByEmail(t, tenant);
    expect(expectStatus(await t.http().get('/v1/attendee/tickets').set(bearer(other.access_token)), 200).data).toEqual([]);
    expectError(await t.http().get('/v1/attendee/tickets'), 401, 'api_key_missing');
    expectError(await t.http().get('/v1/attendee/tickets').set(sk(tenant)), 403, 'insufficient_permissions');
  });

  it('answers a booking by code to its signed-in buyer and to tenant staff; 404 to others, 401 without a token', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, { ticketTypes: [{ price: 1000 }] });
    const buyer = await signInByEmail(t, tenant);
    const booked = expectStatus(await bookAs(t, bearer(buyer.access_token), event.slug, { ticket_id: ticketType.id, quantity: 1, buyer_name: 'B', attendees: [attendee()] }), 201).data.booking;
    const shown = expectStatus(await t.http().get(`/v1/creator/bookings/${booked.code}`).set(bearer(buyer.access_token)), 200).data;
    expect(shown).toMatchObject({ id: booked.id, code: booked.code, customer: buyer.user.customer });
    expect(expectStatus(await t.http().get(`/v1/creator/bookings/${booked.code.toLowerCase()}`).set(bearer(buyer.access_token)), 200).data.id).toBe(booked.id);
    expectError(await t.http().get(`/v1/creator/bookings/${booked.code}`), 401, 'api_key_missing');
    advance(t, 61_000);
    const stranger = await signInByEmail(t, tenant);
    expectError(await t.http().get(`/v1/creator/bookings/${booked.code}`).set(bearer(stranger.access_token)), 404, 'resource_not_found');
    const staffEmail = newEmail();
    expectStatus(await t.http().post('/v1/members').set(sk(tenant)).send({ email: staffEmail, role: 'viewer' }), 201);
    advance(t, 61_000);
    const staff = await signInByEmail(t, tenant, staffEmail);
    expect(expectStatus(await t.http().get(`/v1/creator/bookings/${booked.code}`).set(bearer(staff.access_token)), 200).data.id).toBe(booked.id);
    expectError(await t.http().get('/v1/creator/bookings/ZZZZZZZZ').set(bearer(buyer.access_token)), 404, 'resource_not_found');
  });

  it('keeps orders to their tenant and environment', async () => {
    const owner = await t.tenant('Owner');
    const stranger = await t.tenant('Stranger');
    const { event, ticketType } = await seedEvent(t, owner, { ticketTypes: [{ price: 1000 }] });
    const booked = expectStatus(await bookAs(t, sk(owner), event.slug, bookingBody(ticketType.id, 1, { external_id: 'ext-1' })), 201).data.booking;
    for (const path of [`/v1/orders/${booked.id}`, '/v1/orders/external/ext-1']) {
      expectStatus(await t.http().get(path).set(sk(owner)), 200);
      expectError(await t.http().get(path).set(sk(stranger)), 404, 'resource_not_found');
      expectError(await t.http().get(path).set(sk(owner, 'live')), 404, 'resource_not_found');
    }
    expect(expectStatus(await t.http().get('/v1/orders').set(sk(stranger)), 200).data).toEqual([]);
    const payload = `/v1/events/${event.slug}/book/payload?ticket_id=${ticketType.id}&quantity=1`;
    expectStatus(await t.http().get(payload).set(sk(owner)), 200);
    expectError(await t.http().get(payload).set(sk(stranger)), 404, 'resource_not_found');
    expectError(await t.http().get(payload).set(sk(owner, 'live')), 404, 'resource_not_found');
  });

});
