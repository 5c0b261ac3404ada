import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { newPhone, signInByPhone } from '../identity/identity-fixtures';
import { attendees, bookAs, pk, seedEvent } from '../ticketing/booking-fixtures';
import { creatorOrg, product, sk, type Tenant } from './commerce-fixtures';
import { address, payOrder, placeOrder, readOrder } from './orders-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

/** A ticket booked by a guest known by this phone, in test mode unless `live`. */
async function guestBooking(tenant: Tenant, phone: string, price: number, mode: 'test' | 'live' = 'test') {
  const show = await seedEvent(t, tenant, { livemode: mode === 'live', ticketTypes: [{ price }] });
  const body = { ticket_id: show.ticketType.id, quantity: 1, buyer_name: 'Guest', buyer_phone: phone, attendees: attendees(1) };
  return expectStatus(await bookAs(t, pk(tenant, mode), show.event.id, body), 201).data as { booking: Record<string, any>; payment: string | [] };
}

describe('guest orders pass to the person who signs in', () => {
  it('gives a guest\'s orders to the customer signing in with the same phone, and nobody else\'s', async () => {
    const tenant = await t.tenant('Guests');
    const phone = newPhone();
    const org = await creatorOrg(t, tenant, 'guest_shop');
    const tee = await product(t, tenant, org.id, { variants: [{ name: 'M', sku: 'GUEST-M', price: 2500, stock: 10 }] });
    const shirt = expectStatus(await placeOrder(t, tenant, { line_items: [{ variant: tee.variants[0].id, quantity: 1 }], buyer: { phone }, shipping_address: address }), 201).data;
    await payOrder(t, shirt);
    const ticket = await guestBooking(tenant, phone, 1500);
    await payOrder(t, { checkout_url: ticket.payment as string });
    const stranger = await guestBooking(tenant, newPhone(), 1500);
    // The same phone elsewhere: another tenant, and this tenant's live environment.
    const other = await t.tenant('OtherGuests');
    const elsewhere = await guestBooking(other, phone, 0);
    const live = await guestBooking(tenant, phone, 0, 'live');
    // An order another customer made stays theirs.
    const someone = await signInByPhone(t, tenant);
    const theirs = expectStatus(await placeOrder(t, tenant, { line_items: [{ variant: tee.variants[0].id, quantity: 1 }], buyer: { phone }, shipping_address: address }, { ...bearer(someone.access_token), 'X-Tenant-Code': tenant.tenant.code }), 201).data;
    expect(theirs.customer).toBe(someone.user.customer);

    const dashboard = (token: string) => t.http().get('/v1/attendee/dashboard').set({ ...bearer(token), 'X-Tenant-Code': tenant.tenant.code });
    const session = await signInByPhone(t, tenant, phone);
    const customer = session.user.customer;
    expect((await readOrder(t, tenant, shirt.id)).customer).toBe(customer);
    expect((await readOrder(t, tenant, ticket.booking.id)).customer).toBe(customer);
    expect((await readOrder(t, tenant, stranger.booking.id)).customer).toBeNull();
    expect((await readOrder(t, tenant, theirs.id)).customer).toBe(someone.user.customer);
    expect(expectStatus(await t.http().get(`/v1/orders/${elsewhere.booking.id}`).set(sk(other)), 200).data.customer).toBeNull();
    const liveRow = await t.ctx.db.selectFrom('orders').select('customer_id').where('id', '=', live.booking.id).executeTakeFirstOrThrow();
    expect(liveRow.customer_id).toBeNull();
    const listed = expectStatus(await t.http().get('/v1/orders').query({ customer }).set(sk(tenant)), 200).data.map((o: { id: string }) => o.id);
    expect(listed.sort()).toEqual([shirt.id, ticket.booking.id].sort());
    // The dashboard counts what the guest paid (in major units): the shirt and the ticket.
    expect(expectStatus(await dashboard(session.access_token), 200).data.total_spent).toBe(40);
  });
});
