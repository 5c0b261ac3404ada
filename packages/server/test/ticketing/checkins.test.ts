import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { signedInMember } from './catalogue-fixtures';
import { advance, newPhone, signInByPhone } from '../identity/identity-fixtures';
import { seedEvent, sk, type Tenant } from './booking-fixtures';
import { card, pay, pendingBooking } from './payments-fixtures';
import { attendeesOfOrder, attendeesPath, requireApproval, secretOf } from './attendees-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

const checkinsPath = (event: string) => `/v1/organizer/events/${event}/checkins`;
const scan = (tenant: Tenant, event: string, body: Record<string, unknown>, who = sk(tenant)) =>
  t.http().post(checkinsPath(event)).set(who).send(body);
const scanned = async (tenant: Tenant, event: string, body: Record<string, unknown>) => expectStatus(await scan(tenant, event, body), 200).data;

/** A comp guest of a fresh event that is on now, with their ticket's secret. */
async function guestAtTheDoor(tenant: Tenant) {
  const seeded = await seedEvent(t, tenant, { starts_at: new Date(Date.now() - 3600_000), ends_at: new Date(Date.now() + 3600_000) });
  const added = expectStatus(
    await t.http().post(attendeesPath(seeded.event.slug)).set(sk(tenant)).send({
      first_name: 'Otieno',
      last_name: 'O',
      email: `otieno-${Math.random()}@example.test`,
      ticket_type_id: seeded.ticketType.id,
      send_invite: false,
    }),
    201,
  ).data;
  const ticket = await t.ctx.db.selectFrom('tickets').select('id').where('attendee_id', '=', added.id).executeTakeFirstOrThrow();
  return { ...seeded, attendee: added.id as string, ticket: ticket.id, secret: await secretOf(t, ticket.id) };
}

/** `n` more guests of the same event, each with their ticket and its secret. */
async function moreGuests(tenant: Tenant, g: Awaited<ReturnType<typeof guestAtTheDoor>>, n: number) {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const added = expectStatus(
        await t.http().post(attendeesPath(g.event.slug)).set(sk(tenant)).send({
          first_name: `Guest ${i + 1}`,
          last_name: 'G',
          email: `guest-${i + 1}-${Math.random()}@example.test`,
          ticket_type_id: g.ticketType.id,
          send_invite: false,
        }),
        201,
      ).data;
      const ticket = await t.ctx.db.selectFrom('tickets').select('id').where('attendee_id', '=', added.id).executeTakeFirstOrThrow();
      return { ticket: ticket.id, secret: await secretOf(t, ticket.id) };
    }),
  );
}

describe('check-in at the door', () => {
  it('lets an entry in once, then an exit, then an entry again; unknown secrets are invalid; every scan is listed', async () => {
    const tenant = await t.tenant();
    const g = await guestAtTheDoor(tenant);
    const ok = await scanned(tenant, g.event.slug, { secret: g.secret.toLowerCase(), type: 'entry' });
    expect(ok).toMatchObject({ status: 'ok', reason: null, ticket: { id: g.ticket, status: 'valid' }, attendee: { id: g.attendee, checked_in: true } });
    expect(await scanned(tenant, g.event.slug, { secret: g.secret, type: 'entry' })).toMatchObject({ status: 'error', reason: 'already_redeemed' });
    expect(await scanned(tenant, g.event.slug, { secret: g.secret, type: 'exit' })).toMatchObject({ status: 'ok', attendee: { checked_in: false } });
    expect(await scanned(tenant, g.event.slug, { secret: g.secret, type: 'entry' })).toMatchObject({ status: 'ok' });
    expect(await scanned(tenant, g.event.slug, { secret: 'NOT-A-TICKET', type: 'entry' })).toEqual({ status: 'error', reason: 'invalid', ticket: null, attendee: null });
    expect(await scanned(tenant, g.event.slug, { secret: g.secret, type: 'entry', force: true })).toMatchObject({ status: 'ok' });

    const first = expectStatus(await t.http().get(checkinsPath(g.event.slug)).query({ limit: 4 }).set(sk(tenant)), 200);
    expect(first.data.map((c: any) => [c.type, c.status, c.reason])).toEqual([
      ['entry', 'ok', null],
      ['entry', 'error', 'invalid'],
      ['entry', 'ok', null],
      ['exit', 'ok', null],
    ]);
    expect(first.data[0]).toMatchObject({ object: 'checkin', forced: true, attendee: g.attendee, ticket: g.ticket });
    const rest = expectStatus(await t.http().get(checkinsPath(g.event.slug)).query({ cursor: first.meta.pagination.next_cursor }).set(sk(tenant)), 200);
    expect(rest.data).toHaveLength(2);
    const detail = expectStatus(await t.http().get(`${attendeesPath(g.event.slug)}/${g.attendee}`).set(sk(tenant)), 200).data;
    expect(detail.checkins).toHaveLength(5);

    // Another event's door does not know this ticket.
    const other = await guestAtTheDoor(tenant);
    expect(await scanned(tenant, other.event.slug, { secret: g.secret, type: 'entry' })).toMatchObject({ status: 'error', reason: 'invalid' });
  });

  it('refuses unpaid, unapproved, cancelled and out-of-time tickets', async () => {
    const tenant = await t.tenant();
    const starts_at = new Date(Date.now() - 3600_000);
    const ends_at = new Date(Date.now() + 3600_000);
    const b = await pendingBooking(t, tenant, { starts_at, ends_at }, 2);
    const [first, second] = await attendeesOfOrder(t, b.booking.id);
    const s1 = await secretOf(t, first!.id);
    expect(await scanned(tenant, b.event.slug, { secret: s1, type: 'entry' })).toMatchObject({ status: 'error', reason: 'unpaid' });
    await requireApproval(t, b.event.id);
    expectStatus(await pay(t, b.session, card('4242424242424242')), 200);
    expect(await scanned(tenant, b.event.slug, { secret: s1, type: 'entry' })).toMatchObject({ status: 'error', reason: 'unapproved' });
    expectStatus(await t.http().post(`${attendeesPath(b.event.slug)}/${first!.attendee_id}/reject`).set(sk(tenant)), 200);
    expect(await scanned(tenant, b.event.slug, { secret: s1, type: 'entry' })).toMatchObject({ status: 'error', reason: 'cancelled' });

    expectStatus(await t.http().post(`${attendeesPath(b.event.slug)}/${second!.attendee_id}/approve`).set(sk(tenant)), 200);
    const s2 = await secretOf(t, second!.id);
    const early = new Date(starts_at.getTime() - 2 * 86_400_000).toISOString();
    expect(await scanned(tenant, b.event.slug, { secret: s2, type: 'entry', scanned_at: early })).toMatchObject({ status: 'error', reason: 'invalid_time' });
    expect(await scanned(tenant, b.event.slug, { secret: s2, type: 'entry', scanned_at: early, force: true })).toMatchObject({ status: 'ok' });
  });

  it('two doors scanning one ticket at once: one ok, one already_redeemed', async () => {
    const tenant = await t.tenant();
    const g = await guestAtTheDoor(tenant);
    const results = await Promise.all([0, 1, 2].map(() => scan(tenant, g.event.slug, { secret: g.secret, type: 'entry' })));
    const outcomes = results.map((r) => expectStatus(r, 200).data.reason).sort();
    expect(outcomes).toEqual(['already_redeemed', 'already_redeemed', null]);
  });

  it('scans of many tickets at once, repeats among them: each answer is its own ticket\'s, each ticket admitted and counted once', async () => {
    const tenant = await t.tenant();
    const g = await guestAtTheDoor(tenant);
    const more = await moreGuests(tenant, g, 4);
    const guests = [{ ticket: g.ticket, secret: g.secret }, ...more];
    const sent = [...guests, ...guests, guests[0]!, { ticket: null, secret: 'NOT-A-TICKET' }];
    const answers = await Promise.all(sent.map((s, i) => scan(tenant, g.event.slug, { secret: s.secret, type: 'entry', nonce: `many-${i}` })));
    const data = answers.map((r) => expectStatus(r, 200).data);
    data.forEach((d, i) => expect(d.ticket?.id ?? null).toBe(sent[i]!.ticket));
    for (const guest of guests) {
      const mine = data.filter((d) => d.ticket?.id === guest.ticket);
      expect(mine.filter((d) => d.status === 'ok')).toHaveLength(1);
      expect(mine.filter((d) => d.status === 'error').map((d) => d.reason)).toEqual(mine.slice(1).map(() => 'already_redeemed'));
    }
    expect(data.at(-1)).toMatchObject({ status: 'error', reason: 'invalid' });
    // Out and in again: still counted once.
    await scanned(tenant, g.event.slug, { secret: g.secret, type: 'exit' });
    await scanned(tenant, g.event.slug, { secret: g.secret, type: 'entry' });
    const counted = (await sql<{ n: string }>`select sum(tickets_checked_in) as n from event_checkin_counts where event_id = ${g.event.id}`.execute(t.ctx.db)).rows[0]!;
    expect(Number(counted.n)).toBe(guests.length);
  });

  it('a scan that fails the statement it shares fails alone: the others are scanned again one by one, each admitted once', async () => {
    const tenant = await t.tenant();
    const g = await guestAtTheDoor(tenant);
    const guests = [{ ticket: g.ticket, secret: g.secret }, ...(await moreGuests(tenant, g, 5))];
    const poison = `poison-${Math.random()}`;
    // A fault of one row only: PostgreSQL refuses to store the scan with this nonce.
    await sql`create function refuse_poisoned_scan() returns trigger language plpgsql as $$
      begin if new.nonce like 'poison-%' then raise exception 'refused for the test'; end if; return new; end $$`.execute(t.ctx.db);
    await sql`create trigger refuse_poisoned_scan before insert on checkins for each row execute function refuse_poisoned_scan()`.execute(t.ctx.db);
    try {
      const sent = [...guests.slice(0, 3), { ticket: null, secret: 'NOT-A-TICKET', nonce: poison }, ...guests.slice(3)];
      const answers = await Promise.all(sent.map((s, i) => scan(tenant, g.event.slug, { secret: s.secret, type: 'entry', nonce: 'nonce' in s ? s.nonce : `fine-${i}` })));
      expect(answers.map((r) => r.status)).toEqual(sent.map((s) => ('nonce' in s ? 500 : 200)));
      expect(answers[3]!.body.error.code).toBe('internal_error');
      answers.forEach((r, i) => sent[i]!.ticket && expect(r.body.data).toMatchObject({ status: 'ok', ticket: { id: sent[i]!.ticket } }));
    } finally {
      await sql`drop trigger refuse_poisoned_scan on checkins`.execute(t.ctx.db);
      await sql`drop function refuse_poisoned_scan()`.execute(t.ctx.db);
    }
    const stored = await t.ctx.db.selectFrom('checkins').select(['ticket_id', 'status']).where('event_id', '=', g.event.id).execute();
    expect(stored.map((c) => c.ticket_id).sort()).toEqual(guests.map((x) => x.ticket).sort());
    expect(stored.every((c) => c.status === 'ok')).toBe(true);
  });

  it('answers a repeated nonce with the stored result, also when sent at once', async () => {
    const tenant = await t.tenant();
    const g = await guestAtTheDoor(tenant);
    const same = await Promise.all([0, 1].map(() => scan(tenant, g.event.slug, { secret: g.secret, type: 'entry', nonce: 'door-1-0001' })));
    expect(same.map((r) => expectStatus(r, 200).data.status)).toEqual(['ok', 'ok']);
    expect(await scanned(tenant, g.event.slug, { secret: g.secret, type: 'entry', nonce: 'door-1-0001' })).toMatchObject({ status: 'ok' });
    expect(await scanned(tenant, g.event.slug, { secret: g.secret, type: 'entry', nonce: 'door-1-0002' })).toMatchObject({ reason: 'already_redeemed' });
    // An invalid scan replays as invalid too.
    expect(await scanned(tenant, g.event.slug, { secret: 'NOPE', type: 'entry', nonce: 'door-1-0003' })).toMatchObject({ reason: 'invalid' });
    expect(await scanned(tenant, g.event.slug, { secret: 'NOPE', type: 'entry', nonce: 'door-1-0003' })).toMatchObject({ reason: 'invalid' });
    const stored = await t.ctx.db.selectFrom('checkins').select('nonce').where('event_id', '=', g.event.id).execute();
    expect(stored).toHaveLength(3);
  });

  it('syncs offline scans in order, at most 100', async () => {
    const tenant = await t.tenant();
    const g = await guestAtTheDoor(tenant);
    const res = expectStatus(
      await t.http().post(`${checkinsPath(g.event.slug)}/sync`).set(sk(tenant)).send({
        scans: [
          { secret: g.secret, type: 'entry', nonce: 'a' },
          { secret: g.secret, type: 'entry', nonce: 'b' },
          { secret: g.secret, type: 'exit', nonce: 'c' },
          { secret: 'UNKNOWN', type: 'entry', nonce: 'd' },
          { secret: g.secret, type: 'entry', nonce: 'a' },
        ],
      }),
      200,
    );
    expect(res.data.map((r: any) => r.reason)).toEqual([null, 'already_redeemed', null, 'invalid', null]);
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ secret: g.secret, type: 'entry', nonce: `n${i}` }));
    expectError(await t.http().post(`${checkinsPath(g.event.slug)}/sync`).set(sk(tenant)).send({ scans: tooMany }), 422, 'validation_failed');
  });

  it('takes the checkin role and above of the event\'s organization; a viewer and another organization are refused', async () => {
    const tenant = await t.tenant();
    const g = await guestAtTheDoor(tenant);
    const door = await signedInMember(t, tenant, g.organization, 'checkin');
    const viewer = await signedInMember(t, tenant, g.organization, 'viewer');
    expect(expectStatus(await scan(tenant, g.event.slug, { secret: g.secret, type: 'entry' }, door), 200).data.status).toBe('ok');
    expectStatus(await t.http().get(checkinsPath(g.event.slug)).set(door), 200);
    expectError(await scan(tenant, g.event.slug, { secret: g.secret, type: 'entry' }, viewer), 403, 'missing_permission');
    // The checkin role reads attendees but does not change them.
    expectStatus(await t.http().get(attendeesPath(g.event.slug)).set(door), 200);
    expectError(await t.http().post(`${attendeesPath(g.event.slug)}/${g.attendee}/resend`).set(door), 403, 'missing_permission');
    const other = await seedEvent(t, tenant);
    const stranger = await signedInMember(t, tenant, other.organization, 'checkin');
    expectError(await scan(tenant, g.event.slug, { secret: g.secret, type: 'entry' }, stranger), 403, 'missing_permission');
    expect((await t.http().post(checkinsPath(g.event.slug)).send({ secret: g.secret })).status).toBe(401);
  });

  it('refuses a door member at once after their role in the event\'s organization changes (roles are cached)', async () => {
    const tenant = await t.tenant();
    const g = await guestAtTheDoor(tenant);
    const elsewhere = await seedEvent(t, tenant);
    // The checkin role in two organizations: demoted in one, they still pass the route's own permission check.
    const phone = newPhone();
    const here = expectStatus(await t.http().post(`/v1/organizations/${g.organization}/members`).set(sk(tenant)).send({ phone, role: 'checkin' }), 201).data;
    expectStatus(await t.http().post(`/v1/organizations/${elsewhere.organization}/members`).set(sk(tenant)).send({ phone, role: 'checkin' }), 201);
    advance(t, 61_000);
    const session = await signInByPhone(t, tenant, phone);
    const door = { authorization: `Bearer ${session.access_token}`, 'X-Tenant-Code': tenant.tenant.code };
    expect(expectStatus(await scan(tenant, g.event.slug, { secret: g.secret, type: 'entry' }, door), 200).data.status).toBe('ok');
    expectStatus(await t.http().patch(`/v1/organizations/${g.organization}/members/${here.id}`).set(sk(tenant)).send({ role: 'viewer' }), 200);
    await expect.poll(async () => (await scan(tenant, g.event.slug, { secret: g.secret, type: 'exit' }, door)).status).toBe(403);
    expectError(await scan(tenant, g.event.slug, { secret: g.secret, type: 'exit' }, door), 403, 'missing_permission');
  });
});
