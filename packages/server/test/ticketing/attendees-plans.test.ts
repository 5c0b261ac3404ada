import { CompiledQuery, sql, type Compilable } from 'kysely';
import { describe, expect, it } from 'vitest';
import { exportBatch, EXPORT_BATCH } from '../../src/modules/ticketing/attendees/attendees-export';
import { attendeesPage } from '../../src/modules/ticketing/attendees/attendees.service';
import { attendeesOf } from '../../src/modules/ticketing/attendees/attendee-rows';
import { useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { seedEvent, sk } from './booking-fixtures';
import { attendeesPath } from './attendees-fixtures';

const t = useTestServer();

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** The plan PostgreSQL runs for a statement, as it ran: its node that reads `tickets`. */
async function ticketsScan(query: Compilable<unknown>): Promise<PlanNode> {
  const { sql: text, parameters } = query.compile();
  const { rows } = await t.ctx.db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    CompiledQuery.raw(`explain (analyze, format json) ${text}`, [...parameters]),
  );
  const find = (node: PlanNode): PlanNode | undefined =>
    node['Relation Name'] === 'tickets' ? node : node.Plans?.map(find).find(Boolean);
  const scan = find(rows[0]!['QUERY PLAN'][0]!.Plan)!;
  // A bitmap heap scan names its index on the bitmap index scan below it.
  return { ...scan, 'Index Name': scan['Index Name'] ?? scan.Plans?.find((p) => p['Index Name'])?.['Index Name'] };
}

/** `count` tickets of the event's first order, their ids from `prefix` on (ids sort in that order). */
async function bulkTickets(eventId: string, count: number, prefix: string) {
  const ticket = await t.ctx.db.selectFrom('tickets').selectAll().where('event_id', '=', eventId).executeTakeFirstOrThrow();
  await sql`
    insert into tickets (id, tenant_id, livemode, order_id, event_id, ticket_type_id, position, first_name, last_name, email,
      extra_data, secret_hash, secret_sealed, status)
    select 'tkt_' || ${prefix} || lpad(to_hex(i), 20, '0'), ${ticket.tenant_id}, false, ${ticket.order_id}, ${ticket.event_id}::uuid,
      ${ticket.ticket_type_id}::uuid, i, 'Guest' || i, 'Bulk', 'g' || i || '@example.test', '{}'::jsonb, md5(${ticket.id} || i), 'x', 'valid'
    from generate_series(1, ${count}) as i`.execute(t.ctx.db);
}

describe("an event's attendees are read from its own tickets", () => {
  it('pages the list and the export through (event_id, id), however the tenant\'s other tickets lie', async () => {
    const tenant = await t.tenant();
    const older = await seedEvent(t, tenant);
    const recent = await seedEvent(t, tenant);
    for (const e of [older, recent]) {
      const body = { first_name: 'Amina', last_name: 'Kariuki', email: `a-${e.event.slug}@example.test`, ticket_type_id: e.ticketType.id };
      expectStatus(await t.http().post(attendeesPath(e.event.slug)).set(sk(tenant)).send(body), 201);
    }
    // The older event's tickets sort first and are most of the tenant's; the recent event's sort last.
    await bulkTickets(older.event.id, 20_000, '000000');
    await bulkTickets(recent.event.id, 2_000, 'zzzzzz');
    await sql`analyze tickets`.execute(t.ctx.db);
    const scope = { tenantId: tenant.tenant.id, livemode: false };

    // What the pages would risk: ordered by `tickets.id` alone, the recent event's first batch walks the primary key
    // through the older event's 20,000 tickets.
    const naive = await ticketsScan(attendeesOf(t.ctx.db, scope, recent.event.id).orderBy('tickets.id', 'asc').limit(EXPORT_BATCH));
    expect(naive['Index Name']).toBe('tickets_pkey');
    expect(naive['Rows Removed by Filter']).toBeGreaterThanOrEqual(20_000);

    const middle = (await t.ctx.db.selectFrom('tickets').select('id').where('event_id', '=', older.event.id).orderBy('id').offset(10_000).limit(1).executeTakeFirstOrThrow()).id;
    const pages = {
      'the export, first batch': exportBatch(t.ctx, scope, recent.event.id, null),
      'the export, a later batch': exportBatch(t.ctx, scope, older.event.id, middle),
      'the list, first page': attendeesPage(t.ctx.db, scope, older.event.id, { limit: 50 }),
      'the list, past a cursor': attendeesPage(t.ctx.db, scope, older.event.id, { limit: 50, before: middle }),
    };
    for (const [page, query] of Object.entries(pages)) {
      const scan = await ticketsScan(query);
      expect({ page, index: scan['Index Name'], removed: scan['Rows Removed by Filter'] ?? 0 }).toEqual({ page, index: 'tickets_event', removed: 0 });
      expect(scan['Actual Rows'], page).toBeLessThanOrEqual(EXPORT_BATCH);
    }
    // A status is known only once a ticket's order is joined: the page may read more of the event's tickets, and no other's.
    const byStatus = await ticketsScan(attendeesPage(t.ctx.db, scope, recent.event.id, { limit: 50, status: 'confirmed' }));
    expect({ index: byStatus['Index Name'], removed: byStatus['Rows Removed by Filter'] ?? 0 }).toEqual({ index: 'tickets_event', removed: 0 });
    expect(byStatus['Actual Rows']).toBeLessThanOrEqual(2_001);
  });
});
