import { CompiledQuery, Kysely, PostgresDialect, sql, type Compilable } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema';
import { InListsAsArraysPlugin } from '../../src/db/in-lists';
import { exportBatch, EXPORT_BATCH } from '../../src/modules/ticketing/attendees/attendees-export';
import { attendeesPage } from '../../src/modules/ticketing/attendees/attendees.service';
import { attendeesOf } from '../../src/modules/ticketing/attendees/attendee-rows';
import { listCheckins } from '../../src/modules/ticketing/checkins/checkins.repository';
import { listOrders } from '../../src/modules/ticketing/orders/orders.repository';
import { useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { seedEvent, sk } from './booking-fixtures';
import { attendeesPath } from './attendees-fixtures';

const t = useTestServer();

interface PlanNode {
  'Node Type'?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Where a statement read `table`, as PostgreSQL ran it: the index, and the rows it read and threw away. */
async function scanOf(query: CompiledQuery, table: string) {
  const { rows } = await t.ctx.db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
  );
  const find = (node: PlanNode): PlanNode | undefined => (node['Relation Name'] === table ? node : node.Plans?.map(find).find(Boolean));
  const scan = find(rows[0]!['QUERY PLAN'][0]!.Plan)!;
  // A bitmap heap scan names its index on the bitmap index scan below it.
  const index = scan['Index Name'] ?? scan.Plans?.find((p) => p['Index Name'])?.['Index Name'];
  return { index, rows: scan['Actual Rows'], removed: scan['Rows Removed by Filter'] ?? 0 };
}

// `Sort` or `Incremental Sort`.
const hasSort = (node: PlanNode): boolean => /Sort$/.test(node['Node Type'] ?? '') || (node.Plans ?? []).some(hasSort);

/**
 * Whether the statement, planned without `index` (dropped in a transaction that is rolled back), must sort: then no
 * other index gives its order, so none can be walked in its place.
 */
async function sortsWithout(query: CompiledQuery, index: string): Promise<boolean> {
  let sorts: boolean | undefined;
  await t.ctx.db
    .transaction()
    .execute(async (trx) => {
      await sql.raw(`drop index ${index}`).execute(trx);
      const { rows } = await trx.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
      );
      sorts = hasSort(rows[0]!['QUERY PLAN'][0]!.Plan);
      throw new Error('rolled back');
    })
    .catch((err: Error) => {
      if (err.message !== 'rolled back') throw err;
    });
  return sorts!;
}

// The statements the services send, caught on their way out.
const sent: CompiledQuery[] = [];
let logged: Kysely<DB> | undefined;
afterAll(() => logged?.destroy());

/** The one statement `run` sends. */
async function statementOf(run: (db: Kysely<DB>) => Promise<unknown>): Promise<CompiledQuery> {
  logged ??= new Kysely<DB>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: t.databaseUrl, max: 2 }) }),
    plugins: [new InListsAsArraysPlugin()],
    log: (e) => void sent.push(e.query),
  });
  sent.length = 0;
  await run(logged);
  expect(sent).toHaveLength(1);
  return sent[0]!;
}

/** `count` rows copied from the event's first ticket or order (or made as failed scans), their ids from `prefix` on. */
async function bulkTickets(eventId: string, count: number, prefix: string) {
  const ticket = await t.ctx.db.selectFrom('tickets').selectAll().where('event_id', '=', eventId).executeTakeFirstOrThrow();
  await sql`
    insert into tickets (id, tenant_id, livemode, order_id, event_id, ticket_type_id, position, first_name, last_name, email,
      extra_data, secret_hash, secret_sealed, status)
    select 'tkt_' || ${prefix} || lpad(to_hex(i), 20, '0'), ${ticket.tenant_id}, false, ${ticket.order_id}, ${ticket.event_id}::uuid,
      ${ticket.ticket_type_id}::uuid, i, 'Guest' || i, 'Bulk', 'g' || i || '@example.test', '{}'::jsonb, md5(${ticket.id} || i), 'x', 'valid'
    from generate_series(1, ${count}) as i`.execute(t.ctx.db);
}
async function bulkOrders(eventId: string, count: number, prefix: string) {
  const order = await t.ctx.db.selectFrom('orders').select('id').where('event_id', '=', eventId).executeTakeFirstOrThrow();
  // Every column but those the database computes (`amount_subtotal`), which an insert may not name.
  const { rows } = await sql<{ name: string }>`
    select column_name as name from information_schema.columns
    where table_schema = current_schema() and table_name = 'orders' and is_generated = 'NEVER' order by ordinal_position`.execute(t.ctx.db);
  const columns = rows.map((c) => c.name);
  await sql`
    insert into orders (${sql.join(columns.map((c) => sql.ref(c)))})
    select ${sql.join(columns.map((c) => sql.ref(`r.${c}`)))} from orders o, generate_series(1, ${count}) as i,
      -- In the from list, so the record is made once a row (\`(f(…)).*\` calls f once for each column).
      lateral jsonb_populate_record(null::orders, to_jsonb(o) || jsonb_build_object(
        'id', 'ord_' || ${prefix} || lpad(to_hex(i), 20, '0'), 'code', 'B' || ${prefix} || i)) as r
    where o.id = ${order.id}`.execute(t.ctx.db);
}
async function bulkScans(tenantId: string, eventId: string, count: number, prefix: string) {
  await sql`
    insert into checkins (id, tenant_id, livemode, event_id, ticket_id, type, status, reason, scanned_at)
    select (${prefix} || lpad(to_hex(i), 24, '0'))::uuid, ${tenantId}, false, ${eventId}::uuid, null, 'entry', 'error', 'invalid', now()
    from generate_series(1, ${count}) as i`.execute(t.ctx.db);
}

describe("an event's attendees, check-ins and orders are read from its own rows", () => {
  it("pages them through the (event_id, id) indexes, however the tenant's other events' rows lie", async () => {
    const tenant = await t.tenant();
    // Events made in the same millisecond may get their ids in either order: the older is the one whose id sorts first.
    const [older, recent] = [await seedEvent(t, tenant), await seedEvent(t, tenant)].sort((a, b) => (a.event.id < b.event.id ? -1 : 1)) as [
      Awaited<ReturnType<typeof seedEvent>>,
      Awaited<ReturnType<typeof seedEvent>>,
    ];
    for (const e of [older, recent]) {
      const body = { first_name: 'Amina', last_name: 'Kariuki', email: `a-${e.event.slug}@example.test`, ticket_type_id: e.ticketType.id };
      expectStatus(await t.http().post(attendeesPath(e.event.slug)).set(sk(tenant)).send(body), 201);
    }
    // The older event's rows sort first and are most of the tenant's; the recent event's sort last.
    await bulkTickets(older.event.id, 20_000, '000000');
    await bulkTickets(recent.event.id, 2_000, 'zzzzzz');
    await bulkScans(tenant.tenant.id, older.event.id, 20_000, '00000000');
    await bulkScans(tenant.tenant.id, recent.event.id, 2_000, 'ffffffff');
    await bulkOrders(older.event.id, 20_000, '000000');
    await bulkOrders(recent.event.id, 2_000, 'zzzzzz');
    await sql`analyze tickets; analyze checkins; analyze orders`.execute(t.ctx.db);
    const scope = { tenantId: tenant.tenant.id, livemode: false };

    // What a page would risk: ordered by `tickets.id` alone, the primary key gives its order too, so PostgreSQL may
    // walk it (through the older event's 20,000 tickets, for the recent event's first batch).
    const naive: Compilable<unknown> = attendeesOf(t.ctx.db, scope, recent.event.id).orderBy('tickets.id', 'asc').limit(EXPORT_BATCH);
    expect(await sortsWithout(naive.compile(), 'tickets_event')).toBe(false);

    const middleTicket = (await t.ctx.db.selectFrom('tickets').select('id').where('event_id', '=', older.event.id).orderBy('id').offset(10_000).limit(1).executeTakeFirstOrThrow()).id;
    const middleScan = (await t.ctx.db.selectFrom('checkins').select('id').where('event_id', '=', older.event.id).orderBy('id').offset(10_000).limit(1).executeTakeFirstOrThrow()).id;
    const asIn = (db: Kysely<DB>) => ({ ...t.ctx, db });
    const middleOrder = (await t.ctx.db.selectFrom('orders').select('id').where('event_id', '=', older.event.id).orderBy('id').offset(10_000).limit(1).executeTakeFirstOrThrow()).id;
    const pages: Array<[string, 'tickets' | 'checkins' | 'orders', (db: Kysely<DB>) => Promise<unknown>, number]> = [
      ['the export, first batch', 'tickets', (db) => exportBatch(asIn(db), scope, recent.event.id, null).execute(), EXPORT_BATCH],
      ['the export, a later batch', 'tickets', (db) => exportBatch(asIn(db), scope, older.event.id, middleTicket).execute(), EXPORT_BATCH],
      ['the attendee list, first page', 'tickets', (db) => attendeesPage(db, scope, older.event.id, { limit: 50 }).execute(), 51],
      ['the attendee list, past a cursor', 'tickets', (db) => attendeesPage(db, scope, older.event.id, { limit: 50, before: middleTicket }).execute(), 51],
      ['the check-ins, first page', 'checkins', (db) => listCheckins(db, scope, older.event.id, { limit: 20 }), 21],
      ['the check-ins, older', 'checkins', (db) => listCheckins(db, scope, older.event.id, { limit: 20, starting_after: middleScan }), 21],
      ['the check-ins, newer', 'checkins', (db) => listCheckins(db, scope, recent.event.id, { limit: 20, ending_before: 'ffffffff-0000-0000-0000-000000000100' }), 21],
      ["an event's orders, first page", 'orders', (db) => listOrders(db, scope, { eventId: recent.event.id }, { limit: 20 }), 21],
      ["an event's orders, older", 'orders', (db) => listOrders(db, scope, { eventId: older.event.id }, { limit: 20, starting_after: middleOrder }), 21],
    ];
    const indexOf = { tickets: 'tickets_event', checkins: 'checkins_event', orders: 'orders_event_id' };
    for (const [page, table, run, limit] of pages) {
      const statement = await statementOf(run);
      const scan = await scanOf(statement, table);
      expect({ page, index: scan.index, removed: scan.removed }).toEqual({ page, index: indexOf[table], removed: 0 });
      expect(scan.rows, page).toBeLessThanOrEqual(limit);
      expect(await sortsWithout(statement, indexOf[table]), page).toBe(true);
    }
    // A status is known only once a ticket's order is joined: the page may read more of the event's tickets, and no other's.
    const byStatus = await scanOf(await statementOf((db) => attendeesPage(db, scope, recent.event.id, { limit: 50, status: 'confirmed' }).execute()), 'tickets');
    expect(byStatus).toMatchObject({ index: 'tickets_event', removed: 0 });
    expect(byStatus.rows).toBeLessThanOrEqual(2_001);
  });

  it('answers the same pages as before: newest first, cursors both ways', async () => {
    const tenant = await t.tenant();
    const e = await seedEvent(t, tenant);
    await bulkScans(tenant.tenant.id, e.event.id, 45, '11111111');
    const scope = { tenantId: tenant.tenant.id, livemode: false };
    const all = (await t.ctx.db.selectFrom('checkins').select('id').where('event_id', '=', e.event.id).orderBy('id', 'desc').execute()).map((r) => r.id);
    const first = await listCheckins(t.ctx.db, scope, e.event.id, { limit: 20 });
    expect(first.data.map((r) => r.id)).toEqual(all.slice(0, 20));
    const second = await listCheckins(t.ctx.db, scope, e.event.id, { limit: 20, cursor: first.meta.pagination.next_cursor! });
    expect(second.data.map((r) => r.id)).toEqual(all.slice(20, 40));
    const back = await listCheckins(t.ctx.db, scope, e.event.id, { limit: 20, cursor: second.meta.pagination.prev_cursor! });
    expect(back.data.map((r) => r.id)).toEqual(all.slice(0, 20));
    const last = await listCheckins(t.ctx.db, scope, e.event.id, { limit: 20, cursor: second.meta.pagination.next_cursor! });
    expect(last.data.map((r) => r.id)).toEqual(all.slice(40));
    expect(last.meta.pagination.has_more).toBe(false);
  });
});
