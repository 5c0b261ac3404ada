import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { moveMessage } from '../../src/modules/messaging/delivery/message-transitions';
import { attendeeCsvChunks, EXPORT_BATCH } from '../../src/modules/ticketing/attendees/attendees-export';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { seedEvent, sk } from './booking-fixtures';
import { attendeesPath } from './attendees-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

const guest = (ticketTypeId: string, first_name = 'Amina') => ({
  first_name,
  last_name: 'Kariuki',
  email: `amina-${Date.now()}-${Math.random()}@example.test`,
  ticket_type_id: ticketTypeId,
});

describe('attendee export', () => {
  it('streams a CSV that parses back, with formula cells escaped; other formats are 400 INVALID_FORMAT', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant);
    const formula = expectStatus(await t.http().post(attendeesPath(event.slug)).set(sk(tenant)).send(guest(ticketType.id, '=HYPERLINK("http://x.test","click")')), 201).data;
    expectStatus(await t.http().post(attendeesPath(event.slug)).set(sk(tenant)).send(guest(ticketType.id, '@SUM(1+1)')), 201);
    expectStatus(await t.http().post(attendeesPath(event.slug)).set(sk(tenant)).send(guest(ticketType.id, 'Plain, "quoted"')), 201);

    const res = await t.http().get(`${attendeesPath(event.slug)}/export`).set(sk(tenant));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(3);
    const byId = Object.fromEntries(rows.map((r) => [r.attendee_id, r]));
    expect(byId[formula.id]).toMatchObject({ first_name: `'=HYPERLINK("http://x.test","click")`, status: 'confirmed', comp: 'true', ticket_type: ticketType.name });
    expect(rows.map((r) => r.first_name)).toContain(`'@SUM(1+1)`);
    expect(rows.map((r) => r.first_name)).toContain('Plain, "quoted"');

    expectError(await t.http().get(`${attendeesPath(event.slug)}/export`).query({ format: 'xlsx' }).set(sk(tenant)), 400, 'INVALID_FORMAT');
    expectStatus(await t.http().get(`${attendeesPath(event.slug)}/export`).query({ format: 'csv' }).set(sk(tenant)), 200);
  });

  it('streams 10,000 attendees in keyset batches', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant);
    const added = expectStatus(await t.http().post(attendeesPath(event.slug)).set(sk(tenant)).send(guest(ticketType.id)), 201).data;
    const ticket = await t.ctx.db.selectFrom('tickets').selectAll().where('attendee_id', '=', added.id).executeTakeFirstOrThrow();
    // 9,999 more tickets on the same order, inserted in one statement (the export reads them; booking is not under test).
    await sql`
      insert into tickets (id, tenant_id, livemode, order_id, event_id, ticket_type_id, position, first_name, last_name, email,
        extra_data, secret_hash, secret_sealed, status)
      select 'tkt_' || lpad(to_hex(i), 26, '0'), ${ticket.tenant_id}, false, ${ticket.order_id}, ${ticket.event_id}::uuid, ${ticket.ticket_type_id}::uuid,
        i, 'Guest' || i, 'Bulk', 'g' || i || '@example.test', '{}'::jsonb, md5(${ticket.order_id} || i), 'x', 'valid'
      from generate_series(1, 9999) as i`.execute(t.ctx.db);
    const res = await t.http().get(`${attendeesPath(event.slug)}/export`).set(sk(tenant));
    expect(res.status).toBe(200);
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(10_000);
    expect(new Set(rows.map((r) => r.ticket_id)).size).toBe(10_000);
    expect(rows.filter((r) => r.last_name === 'Bulk')).toHaveLength(9_999);

    // One chunk per keyset batch (not one per row, nor the whole file at once), the header in the first only.
    const chunks: string[] = [];
    for await (const chunk of attendeeCsvChunks(t.ctx, { tenantId: ticket.tenant_id, livemode: false }, ticket.event_id)) chunks.push(chunk);
    expect(chunks).toHaveLength(10_000 / EXPORT_BATCH);
    expect(chunks.map((c) => c.startsWith('attendee_id,'))).toEqual(chunks.map((_, i) => i === 0));
    expect(chunks.join('')).toBe(res.text);
  });
});

describe('delivery statuses', () => {
  it('follow messaging\'s delivered and failed events for the ticket and the invite', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant);
    const added = expectStatus(await t.http().post(attendeesPath(event.slug)).set(sk(tenant)).send(guest(ticketType.id)), 201).data;
    const detail = expectStatus(await t.http().get(`${attendeesPath(event.slug)}/${added.id}`).set(sk(tenant)), 200).data;
    const messageOf = (template: string) =>
      t.ctx.db
        .selectFrom('messages')
        .select(['id', 'status'])
        .where('template', '=', template)
        .where(sql<boolean>`related @> array[${detail.ticket.id}]::text[]`)
        .executeTakeFirstOrThrow();
    const ticketMessage = await messageOf('ticket');
    const invite = await messageOf('attendee_invite');
    await t.ctx.db.transaction().execute(async (trx) => {
      expect(await moveMessage(trx, ticketMessage.id, [ticketMessage.status], { status: 'delivered' })).toBeDefined();
      expect(await moveMessage(trx, invite.id, [invite.status], { status: 'failed' })).toBeDefined();
    });
    const after = expectStatus(await t.http().get(`${attendeesPath(event.slug)}/${added.id}`).set(sk(tenant)), 200).data;
    expect(after).toMatchObject({ ticket_delivery_status: 'delivered', invite_status: 'failed' });

    // A resend queues the ticket again.
    expectStatus(await t.http().post(`${attendeesPath(event.slug)}/${added.id}/resend`).set(sk(tenant)), 200);
    expect(expectStatus(await t.http().get(`${attendeesPath(event.slug)}/${added.id}`).set(sk(tenant)), 200).data.ticket_delivery_status).toBe('queued');
  });
});
