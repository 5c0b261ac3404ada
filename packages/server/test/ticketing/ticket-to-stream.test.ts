import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { tenant as fastTenant } from '../access/access-fixtures';
import { newEmail, signInByEmail } from '../identity/identity-fixtures';
import { makeOrganization, makePublishedEvent } from './catalogue-fixtures';
import { card, pay, sessionOf } from './payments-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

describe('from booking to playing', () => {
  it('a ticket bought in the checkout simulator lets its attendee sign in and open the event\'s live stream; a refund takes it away', async () => {
    const tenant = await fastTenant(t);
    const sk = bearer(tenant.keys.test.secret);
    const pk = { 'Svc-Publishable-Key': tenant.keys.test.publishable };

    // The organizer: a live stream, an event that it streams, a priced ticket that grants two devices.
    const stream = expectStatus(await t.http().post('/v1/streams/live_streams').set(sk).send({}), 201).data;
    const organization = await makeOrganization(t, tenant);
    const { event, ticketType } = await makePublishedEvent(
      t,
      tenant,
      organization.id,
      { live_stream: stream.id, capacity: 100 },
      { price: 120_000, stream_limits: { max_devices: 2 } },
    );

    // The buyer browses and books one ticket for a friend (the attendee), paying by card in the simulator.
    const payload = await t.http().get(`/v1/events/${event.slug}/book/payload`).query({ ticket_id: ticketType.id, quantity: 1 }).set(pk);
    expect(expectStatus(payload, 200).data).toMatchObject({ bookable: true });
    const attendeeEmail = newEmail();
    const booked = expectStatus(
      await t.http().post(`/v1/events/${event.slug}/book`).set(pk).send({
        ticket_id: ticketType.id,
        quantity: 1,
        buyer_name: 'Wanjiru Buyer',
        buyer_email: newEmail(),
        attendees: [{ first_name: 'Otieno', last_name: 'Guest', email: attendeeEmail, phone: null }],
        redirect_url: 'https://shop.example.test/thanks',
      }),
      201,
    ).data;
    expect(booked.booking).toMatchObject({ status: 'pending', amount_due: 120_000 });
    const session = sessionOf(booked.payment);
    expect((await t.http().get(`/checkout/${session}`)).text).toContain('TEST MODE');
    const paid = expectStatus(await pay(t, session, card('4242424242424242')), 200).data;
    expect(new URL(paid.redirect_to).searchParams.get('outcome')).toBe('succeeded');

    // The ticket is valid and the attendee's customer holds the stream through it.
    const order = expectStatus(await t.http().get(`/v1/orders/${booked.booking.id}`).set(sk), 200).data;
    expect(order).toMatchObject({ status: 'paid', amount_paid: 120_000 });
    expect(order.attendees[0].ticket.status).toBe('valid');
    const entitlements = expectStatus(await t.http().get('/v1/access/entitlements').query({ status: 'active' }).set(sk), 200).data;
    expect(entitlements).toHaveLength(1);
    expect(entitlements[0]).toMatchObject({ source: 'ticket', source_ref: booked.booking.code, resource: { type: 'ls', id: stream.id } });
    expect(entitlements[0].limits.max_devices).toBe(2);

    // The attendee signs in with their email, sees the ticket, gets a customer token and plays the stream.
    const signedIn = await signInByEmail(t, tenant, attendeeEmail);
    expect(signedIn.user.customer).toBe(entitlements[0].customer);
    const tickets = expectStatus(await t.http().get('/v1/attendee/tickets').set(bearer(signedIn.access_token)), 200).data;
    expect(tickets.map((x: any) => x.id)).toEqual([order.attendees[0].ticket.id]);
    const token = expectStatus(await t.http().post('/auth/v1/customer_token').set(pk).set(bearer(signedIn.access_token)), 200).data.token;
    const playing = expectStatus(
      await t.http().post('/v1/access/sessions').set(pk).set(bearer(token)).send({ resource: stream.id, device_id: 'phone' }),
      201,
    ).data;
    expect(playing).toMatchObject({ state: 'active', customer: signedIn.user.customer });
    expect(playing.grant.sources.length).toBeGreaterThan(0);

    // A full refund revokes the ticket's stream: the session ends and no new one opens.
    expectStatus(await t.http().post(`/v1/orders/${order.id}/refunds`).set(sk).set('Idempotency-Key', 'full').send({ reason: 'cannot attend' }), 201);
    expect(expectStatus(await t.http().get(`/v1/orders/${order.id}`).set(sk), 200).data.status).toBe('refunded');
    const beat = await t.http().post(`/v1/access/sessions/${playing.id}/heartbeat`).set(pk).set(bearer(token)).send({});
    expectError(beat, 403, 'session_ended', { reason: 'entitlement_inactive' });
    expectError(
      await t.http().post('/v1/access/sessions').set(pk).set(bearer(token)).send({ resource: stream.id, device_id: 'tv' }),
      403,
      'access_denied',
    );
  });
});
