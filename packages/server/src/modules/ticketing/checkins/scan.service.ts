import type { CursorPageQuery, ScanInput, ScanResult } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { newUuidV7 } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';
import type { CheckinReason } from '../../../db/ticketing.schema';
import type { DB } from '../../../db/schema';
import { requireOrganizationPermission } from '../../identity';
import { findEventByRef, findSlot, type EventRow } from '../booking/catalogue-reads';
import { nowOf } from '../orders/order-transitions';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { ticketSecretHash } from '../tickets/ticket-secrets';
import { attendeesOf, serializeAttendee, type AttendeeRow } from '../attendees/attendee-rows';
import { findCheckinByNonce, insertCheckin, lastAcceptedScan, listCheckins, serializeCheckin, type CheckinRow } from './checkins.repository';

/** Doors open this long before the event (or its slot) starts; they close at its end. */
export const DOORS_OPEN_BEFORE_MS = 24 * 3600_000;

/** The event, for door staff: `events:checkin` in its organization (or the tenant), or a key. */
export async function doorEvent(ctx: AppContext, caller: OrganizerCaller, ref: string): Promise<EventRow> {
  const event = await findEventByRef(ctx.db, caller.scope, ref);
  if (!event) throw ApiError.notFound('event', ref);
  if (caller.kind === 'user') await requireOrganizationPermission(ctx, caller.scope.tenantId, caller.userId, event.organization_id, 'events:checkin');
  return event;
}

function resultOf(status: 'ok' | 'error', reason: CheckinReason | null, row: AttendeeRow | undefined): ScanResult {
  return {
    status,
    reason,
    ticket: row ? { id: row.id, status: row.ticket_status, ticket_type: { id: row.ticket_type_id, name: row.ticket_type_name } } : null,
    attendee: row ? serializeAttendee(row) : null,
  };
}

const attendeeOfTicket = (trx: Transaction<DB>, scope: Scope, eventId: string, ticketId: string | null) =>
  ticketId ? attendeesOf(trx, scope, eventId).where('tickets.id', '=', ticketId).executeTakeFirst() : Promise.resolve(undefined);

async function storedResult(trx: Transaction<DB>, scope: Scope, eventId: string, stored: CheckinRow) {
  return resultOf(stored.status, stored.reason, await attendeeOfTicket(trx, scope, eventId, stored.ticket_id));
}

/** Why this scan is refused, or null. Exits are let through for any known ticket (people leave whatever happened). */
async function refusal(trx: Transaction<DB>, scope: Scope, event: EventRow, row: AttendeeRow, scan: ScanInput, at: Date): Promise<CheckinReason | null> {
  if (scan.type === 'exit') return null;
  if (row.status === 'cancelled') return 'cancelled';
  if (row.order_status === 'pending') return 'unpaid';
  if (row.review_status === 'pending') return 'unapproved';
  if (!scan.force) {
    const slot = row.slot_id ? await findSlot(trx, scope, event.id, row.slot_id) : undefined;
    const starts = new Date((slot ?? event).starts_at).getTime();
    const ends = new Date((slot ?? event).ends_at).getTime();
    if (at.getTime() < starts - DOORS_OPEN_BEFORE_MS || at.getTime() > ends) return 'invalid_time';
    if ((await lastAcceptedScan(trx, scope, row.id)) === 'entry') return 'already_redeemed';
  }
  return null;
}

/**
 * One scan, in its own transaction: the ticket is found by its secret's hash and its row locked, so two doors
 * scanning one ticket take turns (one `ok`, one `already_redeemed`). Every scan is stored; a nonce seen before
 * answers the stored result.
 */
async function scanOne(ctx: AppContext, scope: Scope, event: EventRow, scan: ScanInput): Promise<ScanResult> {
  return ctx.db.transaction().execute(async (trx) => {
    if (scan.nonce) {
      const stored = await findCheckinByNonce(trx, scope, event.id, scan.nonce);
      if (stored) return storedResult(trx, scope, event.id, stored);
    }
    const ticket = await scoped(trx, scope)
      .selectFrom('tickets')
      .select(['id', 'event_id'])
      .where('secret_hash', '=', ticketSecretHash(scan.secret.trim()))
      .forUpdate()
      .executeTakeFirst();
    const row = ticket && ticket.event_id === event.id ? await attendeeOfTicket(trx, scope, event.id, ticket.id) : undefined;
    if (scan.nonce && row) {
      // A retry that waited for the first one's lock finds its result now.
      const stored = await findCheckinByNonce(trx, scope, event.id, scan.nonce);
      if (stored) return storedResult(trx, scope, event.id, stored);
    }
    const at = scan.scanned_at ? new Date(scan.scanned_at) : nowOf(ctx);
    const reason = row ? await refusal(trx, scope, event, row, scan, at) : 'invalid';
    const inserted = await insertCheckin(trx, scope, {
      id: newUuidV7(),
      event_id: event.id,
      ticket_id: row?.id ?? null,
      type: scan.type,
      status: reason ? 'error' : 'ok',
      reason,
      nonce: scan.nonce ?? null,
      forced: scan.force === true,
      scanned_at: at,
    });
    if (!inserted) return storedResult(trx, scope, event.id, (await findCheckinByNonce(trx, scope, event.id, scan.nonce!))!);
    return resultOf(reason ? 'error' : 'ok', reason, row && (await attendeeOfTicket(trx, scope, event.id, row.id)));
  });
}

export async function scanTicket(ctx: AppContext, caller: OrganizerCaller, ref: string, scan: ScanInput) {
  return scanOne(ctx, caller.scope, await doorEvent(ctx, caller, ref), scan);
}

/** Offline scans, one after another in the order sent (so an entry then an exit of one ticket both count). */
export async function syncScans(ctx: AppContext, caller: OrganizerCaller, ref: string, scans: readonly ScanInput[]) {
  const event = await doorEvent(ctx, caller, ref);
  const results: ScanResult[] = [];
  for (const scan of scans) results.push(await scanOne(ctx, caller.scope, event, scan));
  return results;
}

export async function listEventCheckins(ctx: AppContext, caller: OrganizerCaller, ref: string, page: CursorPageQuery) {
  const event = await doorEvent(ctx, caller, ref);
  const result = await listCheckins(ctx.db, caller.scope, event.id, page);
  return { ...result, data: result.data.map(serializeCheckin) };
}
