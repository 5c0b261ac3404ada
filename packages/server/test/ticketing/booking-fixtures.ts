import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { newId } from '../../src/core/ids';
import { bearer, type TestServer } from '../harness';
import { expectStatus } from '../kit/expect';

export type Tenant = Awaited<ReturnType<TestServer['tenant']>>;

export interface TicketTypeSeed {
  name?: string;
  pricing_mode?: 'fixed' | 'name_your_price';
  price?: number | null;
  flexipay_min_price?: number | null;
  flexipay_max_price?: number | null;
  quantity?: number | null;
  min_per_order?: number;
  max_per_order?: number;
  sale_starts_at?: Date | null;
  sale_ends_at?: Date | null;
  allow_pay_later?: boolean;
  admits?: number;
  extra_fields?: { id: string; name: string; type: 'text' | 'select' | 'checkbox'; required: boolean; options: string[] | null }[];
  stream_limits?: Record<string, unknown> | null;
  status?: 'active' | 'paused';
}

export interface EventSeed {
  livemode?: boolean;
  status?: 'draft' | 'published' | 'cancelled' | 'completed';
  capacity?: number | null;
  hold_minutes?: number;
  starts_at?: Date;
  ends_at?: Date;
  live_stream?: string | null;
  ticketTypes?: TicketTypeSeed[];
  slots?: { capacity: number | null }[];
  coupons?: { code: string; discount_type: 'percent' | 'fixed'; value: number; max_uses?: number | null; ticket_type_ids?: string[] | null }[];
}

const DAY = 86_400_000;

/**
 * An organization, event, ticket types, slots, coupons and their capacity buckets, inserted as the catalogue
 * makes them (the booking tests need a catalogue, not its routes).
 */
export async function seedEvent(t: TestServer, tenant: Tenant, seed: EventSeed = {}) {
  const db = t.ctx.db;
  const livemode = seed.livemode ?? false;
  const scope = { tenant_id: tenant.tenant.id, livemode };
  const org = await db
    .insertInto('organizations')
    .values({ ...scope, id: newId('organization'), name: 'Venue', handle: `venue-${randomUUID().slice(0, 8)}`, kind: 'venue', timezone: 'Africa/Nairobi', currency: 'KES', external_id: null, metadata: '{}' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const now = Date.now();
  const slug = `show-${randomUUID().slice(0, 8)}`;
  const event = await db
    .insertInto('ticketed_events')
    .values({
      ...scope,
      organization_id: org.id,
      name: 'The Show',
      slug,
      description: null,
      starts_at: seed.starts_at ?? new Date(now + 7 * DAY),
      ends_at: seed.ends_at ?? new Date(now + 7 * DAY + 3 * 3600_000),
      timezone: 'Africa/Nairobi',
      venue: null,
      capacity: seed.capacity ?? null,
      currency: 'KES',
      hold_minutes: seed.hold_minutes ?? 15,
      live_stream_id: seed.live_stream ?? null,
      status: seed.status ?? 'published',
      published_at: new Date(),
      cancelled_at: null,
      metadata: '{}',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const buckets: { id: string; event_id: string; slot_id: string | null; ticket_type_id: string | null; capacity: number | null }[] = [
    { id: `e:${event.id}`, event_id: event.id, slot_id: null, ticket_type_id: null, capacity: event.capacity },
  ];
  const slots = [];
  for (const s of seed.slots ?? []) {
    const slot = await db
      .insertInto('event_slots')
      .values({ ...scope, event_id: event.id, starts_at: event.starts_at, ends_at: event.ends_at, capacity: s.capacity })
      .returningAll()
      .executeTakeFirstOrThrow();
    slots.push(slot);
    buckets.push({ id: `s:${slot.id}`, event_id: event.id, slot_id: slot.id, ticket_type_id: null, capacity: s.capacity });
  }
  const ticketTypes = [];
  for (const [i, tt] of (seed.ticketTypes ?? [{}]).entries()) {
    const row = await db
      .insertInto('ticket_types')
      .values({
        ...scope,
        event_id: event.id,
        name: tt.name ?? `Ticket ${i + 1}`,
        description: null,
        pricing_mode: tt.pricing_mode ?? 'fixed',
        price: tt.price === undefined ? 1000 : tt.price,
        flexipay_min_price: tt.flexipay_min_price ?? null,
        flexipay_max_price: tt.flexipay_max_price ?? null,
        quantity: tt.quantity ?? null,
        min_per_order: tt.min_per_order ?? 1,
        max_per_order: tt.max_per_order ?? 10,
        sale_starts_at: tt.sale_starts_at ?? null,
        sale_ends_at: tt.sale_ends_at ?? null,
        allow_pay_later: tt.allow_pay_later ?? false,
        admits: tt.admits ?? 1,
        extra_fields: JSON.stringify(tt.extra_fields ?? []),
        stream_limits: tt.stream_limits ? JSON.stringify(tt.stream_limits) : null,
        status: tt.status ?? 'active',
        position: i,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    ticketTypes.push(row);
    buckets.push({ id: `t:${row.id}`, event_id: event.id, slot_id: null, ticket_type_id: row.id, capacity: slots.length ? null : row.quantity });
  }
  await db.insertInto('capacity_buckets').values(buckets.map((b) => ({ ...b, ...scope }))).execute();
  for (const c of seed.coupons ?? []) {
    await db
      .insertInto('coupons')
      .values({ ...scope, event_id: event.id, code: c.code, discount_type: c.discount_type, value: c.value, ticket_type_ids: c.ticket_type_ids ?? null, max_uses: c.max_uses ?? null, valid_from: null, valid_until: null })
      .execute();
  }
  return { event, organization: org.id, ticketTypes, ticketType: ticketTypes[0]!, slots };
}

let counter = 0;
export const attendee = (i = counter++) => ({ first_name: `Guest${i}`, last_name: 'Test', email: `guest${i}-${Date.now()}@example.test`, phone: null });
export const attendees = (n: number) => Array.from({ length: n }, () => attendee());

/** A booking body for `quantity` tickets of `ticketType` (one attendee per ticket unless `admits` says more). */
export const bookingBody = (ticketTypeId: string, quantity = 1, extra: Record<string, unknown> = {}) => ({
  ticket_id: ticketTypeId,
  quantity,
  buyer_name: 'Buyer One',
  buyer_email: 'buyer@example.test',
  attendees: attendees(quantity),
  ...extra,
});

export const pk = (tenant: Tenant, mode: 'test' | 'live' = 'test') => ({ 'Svc-Publishable-Key': tenant.keys[mode].publishable });
export const sk = (tenant: Tenant, mode: 'test' | 'live' = 'test') => bearer(tenant.keys[mode].secret);

export function bookAs(t: TestServer, headers: Record<string, string>, event: string, body: object): Promise<Response> {
  return t.http().post(`/v1/events/${event}/book`).set(headers).send(body);
}

export async function bookOk(t: TestServer, tenant: Tenant, event: string, body: object) {
  return expectStatus(await bookAs(t, pk(tenant), event, body), 201).data as { booking: Record<string, any>; payment: string | [] };
}

/** The bucket rows of an event, by id. */
export async function bucketsOf(t: TestServer, eventId: string) {
  const rows = await t.ctx.db.selectFrom('capacity_buckets').selectAll().where('event_id', '=', eventId).execute();
  return Object.fromEntries(rows.map((r) => [r.id, r]));
}
