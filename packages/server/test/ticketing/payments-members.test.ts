import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { makeOrganization, makePublishedEvent, sk, signedInMember } from './catalogue-fixtures';
import { card, pay, sessionOf } from './payments-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

describe('organization members', () => {
  it('refund and cancel their organization\'s events with events:write, read refunds with events:read, and nothing of another organization', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const otherOrg = await makeOrganization(t, tenant);
    const { event, ticketType } = await makePublishedEvent(t, tenant, org.id, {}, { price: 2000 });
    const booked = expectStatus(
      await t.http().post(`/v1/events/${event.id}/book`).set('Svc-Publishable-Key', tenant.keys.test.publishable).send({
        ticket_id: ticketType.id,
        quantity: 1,
        buyer_name: 'Buyer',
        buyer_email: 'buyer@example.test',
        attendees: [{ first_name: 'A', last_name: 'B', email: 'a@example.test', phone: null }],
      }),
      201,
    ).data;
    expectStatus(await pay(t, sessionOf(booked.payment), card('4242424242424242')), 200);
    const order = booked.booking.id;

    const checkin = await signedInMember(t, tenant, org.id, 'checkin');
    const manager = await signedInMember(t, tenant, org.id, 'manager');
    const stranger = await signedInMember(t, tenant, otherOrg.id, 'owner');
    const refund = (who: Record<string, string>, key: string) => t.http().post(`/v1/orders/${order}/refunds`).set(who).set('Idempotency-Key', key).send({ amount: 500 });

    expectStatus(await t.http().get(`/v1/orders/${order}/refunds`).set(checkin), 200);
    expect(expectError(await refund(checkin, 'c'), 403, 'missing_permission').details).toMatchObject({ required_permission: 'events:write' });
    expectError(await refund(stranger, 's'), 403, 'missing_permission');
    expectError(await t.http().get(`/v1/orders/${order}/refunds`).set(stranger), 403, 'missing_permission');
    expect(expectStatus(await refund(manager, 'm'), 201).data).toMatchObject({ amount: 500, status: 'succeeded' });

    expectError(await t.http().post(`/v1/organizer/events/${event.id}/cancel`).set(checkin).send({}), 403, 'missing_permission');
    expectError(await t.http().post(`/v1/organizer/events/${event.id}/cancel`).set(stranger).send({}), 403, 'missing_permission');
    expect(expectStatus(await t.http().post(`/v1/organizer/events/${event.id}/cancel`).set(manager).send({}), 200).data.status).toBe('cancelled');
  });
});
