import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { advance, newEmail, newPhone, signInByEmail, signInByPhone } from '../identity/identity-fixtures';
import { attendees, bookAs, pk, seedEvent } from '../ticketing/booking-fixtures';
import { creatorOrg, product, readyAsset, sk, type Tenant } from './commerce-fixtures';
import { address, payOrder, placeOrder, readOrder } from './orders-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

/** Signs in again with a destination that was sent a code a moment ago: a minute later, then back to the clock. */
async function laterSignIn<T>(signIn: () => Promise<T>): Promise<T> {
  const clock = t.ctx.clock;
  advance(t, 61_000);
  try {
    return await signIn();
  } finally {
    t.ctx.clock = clock;
  }
}

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

  it('passes a phone-only guest\'s digital goods to the customer signing in with that phone, in that tenant only', async () => {
    const phone = newPhone();
    const download = async (tenant: Tenant) => {
      const org = await creatorOrg(t, tenant, `dl_${tenant.tenant.id.slice(-6)}`.toLowerCase());
      const album = await readyAsset(t, tenant);
      const item = await product(t, tenant, org.id, { kind: 'digital', name: 'Album', variants: [{ name: 'Download', sku: `DL-${album.slice(-6)}`, price: 900 }], grants: [{ type: 'ast', id: album }] });
      const order = expectStatus(await placeOrder(t, tenant, { line_items: [{ variant: item.variants[0].id, quantity: 1 }], buyer: { phone } }), 201).data;
      await payOrder(t, order);
      return { album, order };
    };
    const entitlements = async (tenant: Tenant, album: string) =>
      expectStatus(await t.http().get('/v1/access/entitlements').query({ resource: album }).set(sk(tenant)), 200).data as Record<string, any>[];
    const tenant = await t.tenant('PhoneGoods');
    const mine = await download(tenant);
    const other = await t.tenant('PhoneGoodsOther');
    const theirs = await download(other);
    // Bought with a phone alone: no customer could hold the grant yet.
    expect(await entitlements(tenant, mine.album)).toEqual([]);

    const session = await signInByPhone(t, tenant, phone);
    const granted = await entitlements(tenant, mine.album);
    expect(granted).toHaveLength(1);
    expect(granted[0]).toMatchObject({ customer: session.user.customer, source: 'payment', source_ref: mine.order.code, status: 'active' });
    // The same phone's order in another tenant is not touched.
    expect(await entitlements(other, theirs.album)).toEqual([]);
    // Signing in again changes nothing.
    await laterSignIn(() => signInByPhone(t, tenant, phone));
    expect(await entitlements(tenant, mine.album)).toHaveLength(1);
  });

  it('passes a guest\'s digital goods, granted to the customer of their email, to the one signing in with that email', async () => {
    const tenant = await t.tenant('EmailGoods');
    const email = newEmail();
    // The person has a customer of their own, whose email on record has since changed.
    const first = await signInByEmail(t, tenant, email);
    expectStatus(await t.http().patch(`/v1/customers/${first.user.customer}`).set(sk(tenant)).send({ email: newEmail() }), 200);
    const org = await creatorOrg(t, tenant, 'email_goods');
    const album = await readyAsset(t, tenant);
    const item = await product(t, tenant, org.id, { kind: 'digital', name: 'Album', variants: [{ name: 'Download', sku: 'DL-EMAIL', price: 900 }], grants: [{ type: 'ast', id: album }] });
    const order = expectStatus(await placeOrder(t, tenant, { line_items: [{ variant: item.variants[0].id, quantity: 1 }], buyer: { email } }), 201).data;
    await payOrder(t, order);
    const list = async () => expectStatus(await t.http().get('/v1/access/entitlements').query({ resource: album }).set(sk(tenant)), 200).data as Record<string, any>[];
    const before = await list();
    expect(before).toHaveLength(1);
    expect(before[0]!.customer).not.toBe(first.user.customer);

    await laterSignIn(() => signInByEmail(t, tenant, email));
    expect((await readOrder(t, tenant, order.id)).customer).toBe(first.user.customer);
    const after = await list();
    const active = after.filter((e) => e.status === 'active');
    expect(active).toHaveLength(1);
    expect(active[0]).toMatchObject({ customer: first.user.customer, source: 'payment', source_ref: order.code });
    expect(after.find((e) => e.id === before[0]!.id)).toMatchObject({ status: 'revoked' });
  });
});
