import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { pool } from '../api';
import type { Context } from './types';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

export interface OrganizerEvent {
  id: string;
  slug: string;
  ticketType: string;
  price: number;
}

/** A new organization of the bench tenant (its own, so its figures hold only what a scenario seeds). */
export async function newOrganization(ctx: Context, name: string): Promise<{ id: string; timezone: string }> {
  const { data } = await ctx.api.call('POST', '/v1/organizations', { name, handle: `bench_${randomUUID().slice(0, 8)}`, kind: 'brand' });
  return { id: data.id, timezone: data.timezone };
}

/** `count` published events of the organization through the API, each with one ticket type at its own price. */
export async function organizerEvents(ctx: Context, organization: string, count: number, capacity: number): Promise<OrganizerEvent[]> {
  const events: OrganizerEvent[] = new Array(count);
  await pool(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) => {
      const { data: event } = await ctx.api.call('POST', '/v1/organizer/events', {
        organization,
        name: `Bench Show ${String(i).padStart(3, '0')}`,
        starts_at: inDays(30),
        ends_at: new Date(Date.now() + 30 * 86_400_000 + 7_200_000).toISOString(),
        capacity,
      });
      const price = 50_000 + (i % 10) * 10_000;
      const { data: type } = await ctx.api.call('POST', `/v1/organizer/events/${event.id}/ticket_types`, { name: 'Regular', pricing_mode: 'fixed', price });
      await ctx.api.call('POST', `/v1/organizer/events/${event.id}/publish`);
      events[i] = { id: event.id, slug: event.slug, ticketType: type.id, price };
    },
  );
  return events;
}

/** One connection to the bench database for a seed's statements. */
export async function withClient<T>(ctx: Context, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface PaidOrders {
  /** The first order number (ids and codes are made from `first + g`, so two seeds never collide). */
  first: number;
  count: number;
  /** A prefix for the order codes. */
  code: string;
  /** Seconds back from now over which `paid_at` is spread. */
  spreadSeconds: number;
  /** Tickets of order g: `1 + g % ticketsCycle` (so `ticketsCycle` 3 gives 2 on average). */
  ticketsCycle: number;
}

/**
 * Paid orders with their valid tickets, in two INSERT … SELECT statements over `generate_series`, as the booking
 * and the payment leave them: seats sold in the event's and ticket type's buckets, tickets valid, each with its
 * attendee's name and email (people recur across orders and events). Order g goes to event `g % events`.
 * Ids, codes, secrets' hashes and attendee ids ascend, so each index grows at its end (random ones would make
 * the seed several times slower on a small buffer cache); nothing reads a seeded ticket's secret.
 * Then the rollups are counted by `count_paid_orders`, the function a payment calls for its order.
 */
interface Timed {
  rows: number;
  seconds: number;
}

export async function seedPaidOrders(client: pg.Client, ctx: Context, organization: string, events: OrganizerEvent[], o: PaidOrders) {
  const params = [ctx.tenantId, organization, events.map((e) => e.id), events.map((e) => e.ticketType), events.map((e) => e.price)];
  const timed = async (text: string, values: unknown[]): Promise<Timed> => {
    const started = performance.now();
    const r = await client.query(text, values);
    return { rows: r.rowCount ?? 0, seconds: (performance.now() - started) / 1000 };
  };
  const idOf = (n: number) => `'ord_${String(o.first + n).padStart(26, '0')}'`;
  const seeded = `id between ${idOf(1)} and ${idOf(o.count)}`;
  // Loaded as `pg_restore` loads: the secondary indexes of the two tables are dropped and made again after the
  // rows (a sort each, instead of a million index insertions), and foreign keys are not checked row by row
  // (`--disable-triggers`; every reference is made from rows that exist; these tables have no other trigger).
  const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename in ('orders', 'tickets')
       and indexname not in (select conname from pg_constraint)`,
  );
  for (const i of indexes) await client.query(`drop index ${i.indexname}`);
  let orders: Timed | undefined;
  let tickets: Timed | undefined;
  const indexStarted = { at: 0 };
  await client.query('set session_replication_role = replica');
  try {
    orders = await timed(
      `with e as (select i - 1 as i, id, type, price from unnest($3::uuid[], $4::uuid[], $5::int[]) with ordinality as e(id, type, price, i))
       insert into orders (id, tenant_id, livemode, code, status, organization_id, event_id, ticket_type_id, quantity, seats,
         bucket_ids, seats_state, amount_total, amount_paid, currency, buyer_name, buyer_email, paid_at, created_at, updated_at)
       select 'ord_' || lpad((${o.first} + g)::text, 26, '0'), $1, false, $6 || lpad(g::text, 8, '0'), 'paid', $2, e.id, e.type, q, q,
         array['e:' || e.id, 't:' || e.type], 'sold', q * e.price, q * e.price, 'KES', 'Buyer ' || g, 'buyer' || (g % 250000) || '@bench.example',
         at, at, at
       from generate_series(1, $7::int) g
       cross join lateral (select 1 + g % ${o.ticketsCycle} as q, now() - ((g::bigint * 7919) % $8::bigint) * interval '1 second' as at) x
       join e on e.i = g % $9::int`,
      [...params, o.code, o.count, o.spreadSeconds, events.length],
    );
    tickets = await timed(
      `insert into tickets (id, tenant_id, livemode, order_id, event_id, ticket_type_id, position, first_name, last_name, email,
         secret_hash, secret_sealed, status, created_at, updated_at, attendee_id)
       select 'tkt_' || lpad((${o.first} * 4 + n * 4 + p)::text, 26, '0'), $1, false, o.id, o.event_id, o.ticket_type_id, p,
         'Guest', 'Number ' || (n * 4 + p), 'guest' || ((n * 4 + p) % 400000) || '@bench.example',
         'seed:' || lpad((${o.first} * 4 + n * 4 + p)::text, 26, '0'), 'sealed:bench', 'valid', o.paid_at, o.paid_at,
         ('00000000-0000-4000-8000-' || lpad(to_hex(${o.first} * 4 + n * 4 + p), 12, '0'))::uuid
       from (select o.*, substr(o.id, 5)::bigint - ${o.first} as n from orders o where ${seeded}) o
       cross join generate_series(1, o.quantity) p`,
      [ctx.tenantId],
    );
  } finally {
    await client.query('set session_replication_role = default');
    await client.query(`set maintenance_work_mem = '256MB'`);
    indexStarted.at = performance.now();
    for (const i of indexes) await client.query(i.indexdef);
  }
  const indexesRemade = { rows: indexes.length, seconds: (performance.now() - indexStarted.at) / 1000 };
  // The seats the bookings took, in the buckets they took them from.
  await client.query(
    `update capacity_buckets b set sold = b.sold + s.seats
     from (select unnest(bucket_ids) as id, sum(seats) as seats from orders where ${seeded} group by 1) s
     where b.id = s.id`,
  );
  const rollups = await timed(
    `select count_paid_orders(array(select id from orders where ${seeded}))`,
    [],
  );
  const analyze = await timed('analyze orders, tickets, capacity_buckets, event_daily_sales, organization_attendee_events', []);
  return { orders: orders!, tickets: tickets!, indexes: indexesRemade, rollups, analyze };
}
