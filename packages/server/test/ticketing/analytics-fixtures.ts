import { expect } from 'vitest';
import type { TestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { writePageViews } from '../kit/page-views';
import { secretOf } from './attendees-fixtures';
import { makeOrganization, makePublishedEvent, makeTicketType, sk, type Tenant } from './catalogue-fixtures';
import { pk } from './booking-fixtures';
import { card, pay, sessionOf } from './payments-fixtures';

/** The organizer analytics tests' clock, tenants, purchases and worked seed, on the file's test server. */
export function analyticsKit(t: TestServer) {
  /** A tenant whose publishable key is not rate limited by the burst of bookings and reads a test makes. */
  async function roomyTenant(name?: string) {
    const tenant = await t.tenant(name);
    await t.ctx.db.updateTable('tenants').set({ rate_limit_publishable: 10_000 }).where('id', '=', tenant.tenant.id).execute();
    return tenant;
  }

  const DAY = 86_400_000;
  const HOUR = 3_600_000;
  /** Today in Nairobi (UTC+3 all year): the organization's calendar. */
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Nairobi' }).format(new Date());
  const D0 = Date.parse(`${today}T00:00:00Z`);
  /** A moment on a Nairobi day (0 = today) at a local hour. */
  const at = (day: number, hour: number) => new Date(D0 + day * DAY + (hour - 3) * HOUR);
  const dateOf = (day: number) => new Date(D0 + day * DAY).toISOString().slice(0, 10);
  const setClock = (when: Date) => {
    t.ctx.clock = () => new Date(when);
  };

  let n = 0;
  const person = (email: string) => ({ first_name: 'Amina', last_name: `Kamau${n++}`, email, phone: null });

  /** Books and pays by card at `when`; answers the order. */
  async function buy(tenant: Tenant, event: string, ticketType: string, when: Date, emails: string[], extra: Record<string, unknown> = {}) {
    setClock(when);
    const body = { ticket_id: ticketType, quantity: emails.length, buyer_name: 'Amina Kamau', buyer_email: 'buyer@example.test', attendees: emails.map(person), ...extra };
    const { booking, payment } = expectStatus(await t.http().post(`/v1/events/${event}/book`).set(pk(tenant)).send(body), 201).data;
    expectStatus(await pay(t, sessionOf(payment), card('4242424242424242')), 200);
    return booking as { id: string };
  }

  /**
   * One organization in Nairobi with two events, sales over three days (one at 00:30 local, which is the day before
   * in UTC), a coupon, a partial refund, page views, a check-in. The expected figures are worked out by hand below.
   */
  async function seed() {
    const tenant = await roomyTenant();
    const org = await makeOrganization(t, tenant, { timezone: 'Africa/Nairobi' });
    const e1 = await makePublishedEvent(t, tenant, org.id, { name: 'Jazz Night', capacity: 100 }, { name: 'GA', price: 1000 });
    const vip = await makeTicketType(t, tenant, e1.event.id, { name: 'VIP', price: 5000 });
    const e2 = await makePublishedEvent(t, tenant, org.id, { name: 'Poetry Slam' }, { name: 'Floor', price: 2000 });
    expectStatus(await t.http().post(`/v1/organizer/events/${e2.event.id}/coupons`).set(sk(tenant)).send({ code: 'SAVE10', discount_type: 'percent', value: 10 }), 201);

    // Day 0 at 00:30 Nairobi (21:30 UTC on day -1): 2 × GA = 2000.
    const first = await buy(tenant, e1.event.slug, e1.ticketType.id, at(0, 0.5), ['a@example.test', 'b@example.test']);
    // Day -1 at 23:30 Nairobi: 1 × VIP = 5000.
    await buy(tenant, e1.event.slug, vip.id, at(-1, 23.5), ['e@example.test']);
    // Day -2: 3 × Floor = 6000 less 10% = 5400; A@EXAMPLE.TEST is a@example.test again, at another event.
    await buy(tenant, e2.event.slug, e2.ticketType.id, at(-2, 10), ['A@Example.Test', 'c@example.test', 'd@example.test'], { coupon_code: 'SAVE10' });
    // 500 of the first order goes back (today, in real time).
    expectStatus(await t.http().post(`/v1/orders/${first.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', `r-${first.id}`).send({ amount: 500 }), 201);
    // Three visitors read Jazz Night, one of them twice: 3 views, 3 unique visitors (today).
    for (const agent of ['ua-1', 'ua-2', 'ua-3', 'ua-1']) {
      expectStatus(await t.http().get(`/v1/events/${e1.event.slug}`).set(pk(tenant)).set('User-Agent', agent), 200);
    }
    await writePageViews(t);
    // One of Jazz Night's three tickets is scanned in at the door, twice (an exit between): it counts once.
    const ticket = await t.ctx.db.selectFrom('tickets').select('id').where('order_id', '=', first.id).orderBy('position').executeTakeFirstOrThrow();
    const secret = await secretOf(t, ticket.id);
    for (const type of ['entry', 'exit', 'entry']) {
      const scan = expectStatus(await t.http().post(`/v1/organizer/events/${e1.event.slug}/checkins`).set(sk(tenant)).send({ secret, type, force: true }), 200);
      expect(scan.data.status).toBe('ok');
    }
    setClock(at(0, 12));
    return { tenant, org, e1, e2 };
  }

  const get = (path: string, headers: Record<string, string>, query: Record<string, string> = {}) => t.http().get(path).query(query).set(headers);

  return { roomyTenant, at, dateOf, setClock, buy, seed, get };
}
