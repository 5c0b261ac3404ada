import type { ScanInput } from '@svc/contract';
import { sql } from 'kysely';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { CheckinReason } from '../../../db/ticketing.schema';
import { attendeeStatusSql, reviewSql, type AttendeeRow } from '../attendees/attendee-rows';
import { isUuid } from '../booking/catalogue-reads';

/** Doors open this long before the event (or its slot) starts; they close at its end. */
export const DOORS_OPEN_BEFORE_MS = 24 * 3600_000;

/** One scan of a batch. */
export interface ScanItem {
  secretHash: string;
  scan: ScanInput;
  at: Date;
  checkinId: string;
}

export interface ScanStatementInput {
  /** The event's id or slug, as the path names it. */
  ref: string;
  /** The organizations whose door the caller may work; null: any (a key, or a staff role). */
  organizations: readonly string[] | null;
  /** Scans of distinct tickets and distinct nonces (`scan-batches.ts` sends repeats in a later statement). */
  items: readonly ScanItem[];
}

export type ScanStatementOutcome =
  | { kind: 'no_event' }
  | { kind: 'forbidden'; organizationId: string }
  /** The nonce was stored before (or at once by another request): the stored scan answers. */
  | { kind: 'replay'; eventId: string }
  | { kind: 'stored'; eventId: string; status: 'ok' | 'error'; reason: CheckinReason | null; row: AttendeeRow | undefined };

type Raw = Omit<AttendeeRow, 'checked_in'> & {
  n: number;
  tk_n: number | null;
  event_id: string;
  organization_id: string;
  allowed: boolean;
  replayed: boolean;
  scan_status: 'ok' | 'error' | null;
  scan_reason: CheckinReason | null;
  moved: boolean;
  was_checked_in: boolean | null;
  door_starts: Date | null;
  door_ends: Date | null;
};

/**
 * Scans of one door in one statement (one round trip, its own transaction): the event by its reference and the
 * caller's right to its door, the nonces stored before, each ticket by its secret's hash with everything the
 * refusals read, then the redemptions as one conditional `UPDATE` of the ticket rows (an entry only where it is
 * not inside yet, unless forced), and each scan stored with the outcome of that update. Two scans of one ticket at
 * once (in two statements, on any process): the second's update waits for the first's row lock, then finds the
 * ticket inside and stores `already_redeemed`. The answers come in the order of `items`.
 */
export async function runScanStatement(db: Executor, scope: Scope, input: ScanStatementInput): Promise<ScanStatementOutcome[]> {
  const rows = (await scanStatement(scope, input).execute(db)).rows;
  if (rows.length === 0) return input.items.map(() => ({ kind: 'no_event' }));
  return rows.map((raw): ScanStatementOutcome => {
    if (!raw.allowed) return { kind: 'forbidden', organizationId: raw.organization_id };
    if (raw.replayed || raw.scan_status === null) return { kind: 'replay', eventId: raw.event_id };
    const { n, tk_n, event_id, organization_id, allowed, replayed, scan_status, scan_reason, moved, was_checked_in, door_starts, door_ends, ...rest } = raw;
    const entry = input.items[n]!.scan.type === 'entry';
    const row: AttendeeRow | undefined =
      rest.id === null ? undefined : { ...(rest as Omit<AttendeeRow, 'checked_in'>), checked_in: moved ? entry : was_checked_in === true };
    return { kind: 'stored', eventId: event_id, status: scan_status, reason: scan_reason, row };
  });
}

/** The statement `runScanStatement` runs (apart, so its plan can be read); its text is the same for any batch. */
export function scanStatement(scope: Scope, input: ScanStatementInput) {
  const { items } = input;
  const refCondition = isUuid(input.ref) ? sql`(ticketed_events.id = ${input.ref}::uuid or ticketed_events.slug = ${input.ref})` : sql`ticketed_events.slug = ${input.ref}`;
  const orgs = input.organizations === null ? null : [...input.organizations];
  return sql<Raw>`
    with ev as (
      select ticketed_events.id, ticketed_events.organization_id, ticketed_events.starts_at, ticketed_events.ends_at,
             (${orgs}::text[] is null or ticketed_events.organization_id = any(${orgs}::text[])) as allowed
        from ticketed_events
       where ticketed_events.tenant_id = ${scope.tenantId} and ticketed_events.livemode = ${scope.livemode} and ${refCondition}
       limit 1
    ),
    input as (
      select * from unnest(${items.map((_, n) => n)}::int[], ${items.map((i) => i.secretHash)}::text[],
                           ${items.map((i) => i.scan.type)}::text[], ${items.map((i) => i.scan.force === true)}::boolean[],
                           ${items.map((i) => i.scan.nonce ?? null)}::text[], ${items.map((i) => i.at)}::timestamptz[],
                           ${items.map((i) => i.checkinId)}::uuid[])
             as i(n, secret_hash, type, force, nonce, at, checkin_id)
    ),
    prior as (
      select input.n from input
       where input.nonce in (select checkin_nonces_stored((select id from ev), array(select nonce from input where nonce is not null)))
    ),
    fresh as (
      select input.* from input join ev on ev.allowed where not exists (select 1 from prior where prior.n = input.n)
    ),
    tk as (
      select fresh.n as tk_n, tickets.id, tickets.attendee_id, tickets.livemode, tickets.first_name, tickets.last_name, tickets.email,
             tickets.phone, tickets.status as ticket_status, tickets.slot_id, tickets.extra_data, tickets.review_reason,
             tickets.reviewed_at, tickets.invite_status, tickets.ticket_delivery_status, tickets.resent_at,
             tickets.created_at, tickets.order_id, orders.code as order_code, orders.status as order_status, orders.comp,
             ticket_types.id as ticket_type_id, ticket_types.name as ticket_type_name, ticket_types.extra_fields,
             ${attendeeStatusSql} as status, ${reviewSql} as review_status, tickets.checked_in as was_checked_in,
             coalesce(event_slots.starts_at, ev.starts_at) as door_starts, coalesce(event_slots.ends_at, ev.ends_at) as door_ends
        from fresh
        join ev on true
        join tickets on tickets.event_id = ev.id and tickets.tenant_id = ${scope.tenantId}
                    and tickets.livemode = ${scope.livemode} and tickets.secret_hash = fresh.secret_hash
        join orders on orders.id = tickets.order_id
        join ticket_types on ticket_types.id = tickets.ticket_type_id
        join ticketed_events on ticketed_events.id = tickets.event_id
        left join event_slots on event_slots.id = tickets.slot_id
    ),
    verdict as (
      select tk.tk_n as n, tk.id, fresh.type, fresh.force, case
               when fresh.type = 'exit' then null
               when tk.status = 'cancelled' then 'cancelled'
               when tk.order_status = 'pending' then 'unpaid'
               when tk.review_status = 'pending' then 'unapproved'
               when fresh.force then null
               when fresh.at < tk.door_starts - ${DOORS_OPEN_BEFORE_MS} * interval '1 millisecond'
                 or fresh.at > tk.door_ends then 'invalid_time'
             end as refused
        from tk join fresh on fresh.n = tk.tk_n
    ),
    moved as (
      update tickets set checked_in = (verdict.type = 'entry')
        from verdict
       where tickets.id = verdict.id and verdict.refused is null
         and (verdict.type = 'exit' or verdict.force or not tickets.checked_in)
      returning tickets.id
    ),
    stored as (
      insert into checkins (id, tenant_id, livemode, event_id, ticket_id, type, status, reason, nonce, forced, scanned_at)
      select fresh.checkin_id, ${scope.tenantId}, ${scope.livemode}, ev.id, verdict.id, fresh.type,
             case when moved.id is not null then 'ok' else 'error' end,
             case when moved.id is not null then null
                  when verdict.id is null then 'invalid'
                  else coalesce(verdict.refused, 'already_redeemed') end,
             fresh.nonce, fresh.force, fresh.at
        from fresh join ev on true
        left join verdict on verdict.n = fresh.n
        left join moved on moved.id = verdict.id
       order by fresh.n
      on conflict (event_id, nonce) do nothing
      returning id, status, reason
    )
    select input.n, ev.id as event_id, ev.organization_id, ev.allowed, prior.n is not null as replayed,
           stored.status as scan_status, stored.reason as scan_reason, moved.id is not null as moved, tk.*
      from ev join input on true
      left join prior on prior.n = input.n
      left join stored on stored.id = input.checkin_id
      left join tk on tk.tk_n = input.n
      left join moved on moved.id = tk.id
     order by input.n`;
}
