import { sql } from 'kysely';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/core/context';
import type { NotificationListener } from '../../src/core/notify';
import { ROOM_FREED_CHANNEL } from '../../src/modules/ticketing/booking/sold-out-memo';
import { releaseOrder } from '../../src/modules/ticketing/orders/order-transitions';
import { publicReadsOf } from '../../src/modules/ticketing/public/public-parts';
import type { TestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { bookingBody, pk } from './booking-fixtures';
import { makePublishedEvent, sk, type Tenant } from './catalogue-fixtures';
import { stopTwoInstances, twoInstances, type SecondInstance } from './two-instances';

/**
 * Once a ticket type is sold out, each process answers the refusals from the target it last read full, until it
 * hears that room may have come back. Two app instances share one database here, as two server processes would.
 */

let t: TestServer;
let second: SecondInstance;
let tenant: Tenant;
let org: { id: string };

beforeAll(async () => {
  ({ t, second, tenant, org } = await twoInstances());
});

afterAll(() => stopTwoInstances(t, second));

const onFirst = (slug: string, body: object) => t.http().post(`/v1/events/${slug}/book`).set(pk(tenant)).send(body);
const onSecond = (slug: string, body: object) => request(second.app).post(`/v1/events/${slug}/book`).set(pk(tenant)).send(body);
const memoOf = (ctx: AppContext) => publicReadsOf(ctx).soldOut;

/** Resolves when the instance hears that room may have come back for the event. */
const heardOn = (listener: NotificationListener, eventId: string) =>
  new Promise<void>((resolve) => listener.on(ROOM_FREED_CHANNEL, (payload) => payload === eventId && resolve()));

/** A published event whose only ticket type has `quantity` seats, all booked by one pending order (its id). */
async function soldOut(quantity: number) {
  const { event, ticketType } = await makePublishedEvent(t, tenant, org.id, {}, { quantity, max_per_order: 4 });
  const order = expectStatus(await onFirst(event.slug, bookingBody(ticketType.id, quantity)), 201).data.booking.id as string;
  return { event, ticketType, order };
}

describe('bookings of a sold-out ticket type', () => {
  it('are refused from the target read full, without reading it again, until this process forgets it', async () => {
    const { event, ticketType } = await soldOut(2);
    expectError(await onFirst(event.slug, bookingBody(ticketType.id, 1)), 409, 'sold_out');
    expect(memoOf(t.ctx).holds(event.id)).toBe(true);
    // Room made behind the services' back, with triggers off: nothing tells the process, which still refuses.
    await t.ctx.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`update capacity_buckets set held = 0 where event_id = ${event.id}::uuid`.execute(trx);
    });
    expectError(await onFirst(event.slug, bookingBody(ticketType.id, 1)), 409, 'sold_out');
    memoOf(t.ctx).forget(event.id);
    expectStatus(await onFirst(event.slug, bookingBody(ticketType.id, 1)), 201);
  });

  it('are taken again at once on the process that gave seats back, and on another as soon as it hears of it', async () => {
    const { event, ticketType, order } = await soldOut(2);
    expectError(await onFirst(event.slug, bookingBody(ticketType.id, 1)), 409, 'sold_out');
    expectError(await onSecond(event.slug, bookingBody(ticketType.id, 1)), 409, 'sold_out');
    expect(memoOf(t.ctx).holds(event.id)).toBe(true);
    expect(memoOf(second.ctx).holds(event.id)).toBe(true);

    const heard = heardOn(second.listener, event.id);
    expectStatus(await t.http().post(`/v1/orders/${order}/cancel`).set(sk(tenant)), 200);
    // The cancelling process forgot inside its transaction, before any notification.
    expectStatus(await onFirst(event.slug, bookingBody(ticketType.id, 1)), 201);
    await heard;
    expect(memoOf(second.ctx).holds(event.id)).toBe(false);
    expectStatus(await onSecond(event.slug, bookingBody(ticketType.id, 1)), 201);
    // Full again: both refuse, and nothing was oversold.
    expectError(await onSecond(event.slug, bookingBody(ticketType.id, 1)), 409, 'sold_out');
    const row = await t.ctx.db.selectFrom('capacity_buckets').selectAll().where('id', '=', `t:${ticketType.id}`).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ capacity: 2, held: 2, sold: 0 });
  });

  it('are forgotten by the process that gives seats back inside its transaction, before any notification', async () => {
    const { event, ticketType, order } = await soldOut(1);
    expectError(await onFirst(event.slug, bookingBody(ticketType.id, 1)), 409, 'sold_out');
    expect(memoOf(t.ctx).holds(event.id)).toBe(true);
    const undo = new Error('roll back');
    await expect(
      t.ctx.db.transaction().execute(async (trx) => {
        await releaseOrder(trx, t.ctx, { tenantId: tenant.tenant.id, livemode: false }, order);
        // Not committed, so nothing was notified: this process forgot the event by itself.
        expect(memoOf(t.ctx).holds(event.id)).toBe(false);
        throw undo;
      }),
    ).rejects.toBe(undo);
  });

  it('are taken on another process once the organizer raises the quantity', async () => {
    const { event, ticketType } = await soldOut(1);
    expectError(await onSecond(event.slug, bookingBody(ticketType.id, 1)), 409, 'sold_out');
    const heard = heardOn(second.listener, event.id);
    expectStatus(await t.http().patch(`/v1/organizer/events/${event.id}/ticket_types/${ticketType.id}`).set(sk(tenant)).send({ quantity: 2 }), 200);
    await heard;
    expectStatus(await onSecond(event.slug, bookingBody(ticketType.id, 1)), 201);
  });

  it('room given back notifies once per event and transaction; seats held or sold notify nothing', async () => {
    const listen = new pg.Client({ connectionString: t.databaseUrl });
    await listen.connect();
    const heard: string[] = [];
    listen.on('notification', (n) => n.channel === ROOM_FREED_CHANNEL && heard.push(n.payload ?? ''));
    await listen.query(`listen ${ROOM_FREED_CHANNEL}`);
    try {
      const { event, ticketType } = await makePublishedEvent(t, tenant, org.id, {}, { quantity: 10, max_per_order: 4 });
      const booked = expectStatus(await onFirst(event.slug, bookingBody(ticketType.id, 3)), 201).data.booking.id as string;
      // Held to sold: the room stays as it was.
      await sql`update capacity_buckets set held = held - 3, sold = sold + 3 where event_id = ${event.id}::uuid`.execute(t.ctx.db);
      await sql`update capacity_buckets set sold = sold - 3, held = held + 3 where event_id = ${event.id}::uuid`.execute(t.ctx.db);
      expectStatus(await t.http().post(`/v1/orders/${booked}/cancel`).set(sk(tenant)), 200);
      // A round trip on the listening connection lets every notification sent before it arrive.
      await listen.query('select 1');
      // Earlier tests' events may still be heard here: only this event's count.
      expect(heard.filter((id) => id === event.id)).toEqual([event.id]);
    } finally {
      await listen.end();
    }
  });
});
