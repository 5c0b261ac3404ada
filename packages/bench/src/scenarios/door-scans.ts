import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { burst, type Answer, type BurstRequest } from '../burst';
import { signedInMember } from './ticketing-reads';
import { settle } from './settle';
import { publishedEvent, query } from './ticketing-seed';
import { RSS_LIMIT_MB, type Context, type Scenario } from './types';

/** The ticket secrets' alphabet (no 0/O, 1/I/L), as the server makes them. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
const DEVICES = 50;

/** `n` in `ALPHABET`, left-padded to `width` with its first letter. */
function base31(n: number, width: number): string {
  let out = '';
  for (; n > 0; n = Math.floor(n / ALPHABET.length)) out = ALPHABET[n % ALPHABET.length] + out;
  return out.padStart(width, ALPHABET[0]);
}

/** An id of the server's shape: the prefix and a 26-character TypeID suffix (random here, not time-ordered). */
function typeId(prefix: string): string {
  let out = String(randomBytes(1)[0]! % 8);
  for (const b of randomBytes(25)) out += CROCKFORD[b % 32];
  return `${prefix}_${out}`;
}

export const secretOf = (i: number) => `DOOR${base31(i, 28)}`;

/**
 * `n` valid tickets of the event, each in its own paid order, made with SQL from one comp ticket added through
 * the API (the template: its order's status, buckets and amounts, its ticket type and review state). The copies'
 * sealed secrets are the template's (only the hash is read at the door), so they cannot be shown again.
 */
export async function seedTickets(ctx: Context, event: { id: string; slug: string; ticketType: string }, n: number) {
  const { data: added } = await ctx.api.call('POST', `/v1/organizer/events/${event.slug}/attendees`, {
    first_name: 'Template',
    last_name: 'Guest',
    email: 'template@bench.example',
    ticket_type_id: event.ticketType,
    send_invite: false,
  });
  const [tpl] = await query<{ id: string; order_id: string; prefix_o: string; prefix_t: string }>(
    ctx,
    `select t.id, t.order_id, split_part(t.order_id, '_', 1) as prefix_o, split_part(t.id, '_', 1) as prefix_t
       from tickets t where t.attendee_id = $1`,
    [added.id],
  );
  const orders = Array.from({ length: n }, () => typeId(tpl!.prefix_o));
  const tickets = Array.from({ length: n }, () => typeId(tpl!.prefix_t));
  const codes = Array.from({ length: n }, (_, i) => `D${base31(i, 7)}`);
  const hashes = Array.from({ length: n }, (_, i) => createHash('sha256').update(secretOf(i)).digest('hex'));
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    // Every column but those the database computes (`amount_subtotal`), which an insert may not name.
    const columns = (
      await client.query<{ name: string }>(
        `select quote_ident(column_name) as name from information_schema.columns
          where table_schema = current_schema() and table_name = 'orders' and is_generated = 'NEVER' order by ordinal_position`,
      )
    ).rows.map((c) => c.name);
    await client.query(
      // Each record made in the from list, once a row (`(f(…)).*` would call f once for each column).
      `insert into orders (${columns.join(', ')})
       select ${columns.map((c) => `r.${c}`).join(', ')} from orders o, unnest($2::text[], $3::text[]) as s(id, code),
         lateral jsonb_populate_record(null::orders, to_jsonb(o) || jsonb_build_object('id', s.id, 'code', s.code)) as r
        where o.id = $1`,
      [tpl!.order_id, orders, codes],
    );
    await client.query(
      `insert into tickets
       select r.* from tickets t, unnest($2::text[], $3::text[], $4::text[]) with ordinality as s(id, order_id, hash, n),
         lateral jsonb_populate_record(null::tickets, to_jsonb(t) || jsonb_build_object(
                 'id', s.id, 'order_id', s.order_id, 'secret_hash', s.hash, 'attendee_id', gen_random_uuid(),
                 'last_name', 'Guest ' || s.n, 'email', 'guest-' || s.n || '@bench.example')) as r
        where t.id = $1`,
      [tpl!.id, tickets, orders, hashes],
    );
    // The seats they take, as the API's comps would have.
    await client.query(`update capacity_buckets b set sold = sold + $2 from orders o where o.id = $1 and b.id = any(o.bucket_ids)`, [tpl!.order_id, n]);
    await client.query('commit');
    await client.query('analyze orders; analyze tickets');
  } finally {
    await client.end();
  }
}

const describe = (a: Answer | undefined) => (a ? `${a.status} ${a.error ?? JSON.stringify(a.body).slice(0, 200)}` : 'none');

/**
 * 10,000 valid tickets of an event that is on, scanned once each in turn over 50 connections (the 50 door devices),
 * through `POST /v1/organizer/events/{event}/checkins` with a member's access token (role `checkin`), each scan
 * with its device's nonce; 5 % of the scans are repeats of a ticket scanned 500 scans earlier. Checked after the
 * run: every first scan `ok`, every repeat `error`/`already_redeemed`, and in the rows exactly one accepted entry
 * per ticket (no double entry) and the event's checked-in count equal to the tickets.
 */
export const doorScans: Scenario = {
  name: 'door-scans',
  run: async (ctx) => {
    const TICKETS = Math.max(DEVICES, Math.round(10_000 * ctx.ticketingScale));
    const REPEATS = Math.round(TICKETS / 20);
    const GAP = Math.min(500, Math.floor(TICKETS / 4));
    const event = await publishedEvent(ctx, 'Bench Door', { quantity: 2 * TICKETS + 10 }, { startsInHours: -1 });
    await seedTickets(ctx, event, TICKETS);
    const door = await signedInMember(ctx, event.organization, 'checkin');

    // Ticket i, then one in 20 once more, 500 scans after its first.
    const order: Array<{ ticket: number; repeat: boolean }> = [];
    const repeatsAfter = new Map<number, number[]>();
    // A repeat comes well after its first scan (more scans between than devices), also at small scales.
    const gap = Math.min(GAP, Math.floor(TICKETS / 2));
    for (let r = 0; r < REPEATS; r++) {
      const ticket = Math.floor((r * (TICKETS - gap)) / REPEATS);
      const at = ticket + gap;
      repeatsAfter.set(at, [...(repeatsAfter.get(at) ?? []), ticket]);
    }
    for (let i = 0; i < TICKETS; i++) {
      order.push({ ticket: i, repeat: false });
      for (const ticket of repeatsAfter.get(i) ?? []) order.push({ ticket, repeat: true });
    }
    const requests: BurstRequest[] = order.map((s, i) => ({
      method: 'POST',
      path: `/v1/organizer/events/${event.slug}/checkins`,
      headers: door,
      body: { secret: secretOf(s.ticket), type: 'entry', nonce: `device-${i % DEVICES}-${i}` },
    }));
    await settle(ctx.databaseUrl);
    const { result, answers } = await burst(ctx.svc, DEVICES, requests);

    const firsts = answers.filter((_, i) => !order[i]!.repeat);
    const repeats = answers.filter((_, i) => order[i]!.repeat);
    const notAdmitted = firsts.filter((a) => !(a.status === 200 && a.body?.data?.status === 'ok'));
    const notRefused = repeats.filter((a) => !(a.status === 200 && a.body?.data?.status === 'error' && a.body.data.reason === 'already_redeemed'));
    const [rows] = await query<Record<string, string>>(
      ctx,
      `with per_ticket as (
         select t.id, count(c.id) filter (where c.status = 'ok' and c.type = 'entry') as entries
           from tickets t left join checkins c on c.ticket_id = t.id where t.event_id = $1 group by t.id)
       select (select count(*) from checkins where event_id = $1) as scans,
              (select count(*) from per_ticket where entries > 1) as double_entries,
              (select count(*) from per_ticket where entries = 1) as admitted_once,
              (select coalesce(sum(tickets_checked_in), 0) from event_checkin_counts where event_id = $1) as counted`,
      [event.id],
    );
    const n = (k: string) => Number(rows![k]);
    const correct =
      notAdmitted.length === 0 && notRefused.length === 0 && n('double_entries') === 0 && n('admitted_once') === TICKETS &&
      n('scans') === order.length && n('counted') === TICKETS;
    return {
      results: [
        {
          name: `door scans (${TICKETS} tickets, ${DEVICES} devices, +${REPEATS} repeats)`,
          result,
          target: {
            label: '≥ 0.8× write, repeats already_redeemed, 0 double entries',
            met: (r, x) => x >= 0.8 && correct && r.errors === 0 && r.non2xx === 0 && r.peakRssMb <= RSS_LIMIT_MB,
          },
        },
      ],
      notes: [
        `Door scans: ${firsts.length - notAdmitted.length} of ${TICKETS} first scans admitted${notAdmitted[0] ? ` (else ${describe(notAdmitted[0])})` : ''}; ` +
          `${repeats.length - notRefused.length} of ${repeats.length} repeats answered already_redeemed${notRefused[0] ? ` (else ${describe(notRefused[0])})` : ''}. ` +
          `Rows: ${n('scans')} scans stored for ${order.length} sent, ${n('admitted_once')} tickets with exactly one accepted entry, ` +
          `${n('double_entries')} double entries; the event's checked-in count ${n('counted')}.`,
      ],
    };
  },
};
