import type { CursorPageQuery, ScanInput, ScanResult } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { newUuidV7 } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { CheckinReason } from '../../../db/ticketing.schema';
import { organizationsGranting, requireOrganizationPermission } from '../../identity';
import { findEventByRef, type EventRow } from '../booking/catalogue-reads';
import { nowOf } from '../orders/order-transitions';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { ticketSecretHash } from '../tickets/ticket-secrets';
import { attendeesOf, serializeAttendee, type AttendeeRow } from '../attendees/attendee-rows';
import { findCheckinByNonce, listCheckins, serializeCheckin } from './checkins.repository';
import { scanInBatch } from './scan-batches';

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

/** The result stored for a nonce sent before, with the ticket's attendee as it is now. */
async function storedResult(ctx: AppContext, scope: Scope, eventId: string, nonce: string): Promise<ScanResult> {
  const stored = await findCheckinByNonce(ctx.db, scope, eventId, nonce);
  if (!stored) throw new Error(`check-in: the scan with nonce ${nonce} is not stored`);
  const row = stored.ticket_id ? await attendeesOf(ctx.db, scope, eventId).where('tickets.id', '=', stored.ticket_id).executeTakeFirst() : undefined;
  return resultOf(stored.status, stored.reason, row);
}

/**
 * One scan (`scanInBatch`: one statement with the scans arriving meanwhile, its own transaction). Every scan is
 * stored; a nonce seen before answers the stored result. `organizations` are those whose door the caller may work (null: any).
 */
async function scanOne(ctx: AppContext, caller: OrganizerCaller, ref: string, organizations: readonly string[] | null, scan: ScanInput): Promise<ScanResult> {
  const outcome = await scanInBatch(ctx.db, caller.scope, ref, organizations, {
    secretHash: ticketSecretHash(scan.secret.trim()),
    scan,
    at: scan.scanned_at ? new Date(scan.scanned_at) : nowOf(ctx),
    checkinId: newUuidV7(),
  });
  switch (outcome.kind) {
    case 'no_event':
      throw ApiError.notFound('event', ref);
    case 'forbidden':
      // Nothing was stored: refused with the permission check's own error (or, granted meanwhile, scanned).
      if (caller.kind === 'user') await requireOrganizationPermission(ctx, caller.scope.tenantId, caller.userId, outcome.organizationId, 'events:checkin');
      return scanOne(ctx, caller, ref, null, scan);
    case 'replay':
      return storedResult(ctx, caller.scope, outcome.eventId, scan.nonce!);
    case 'stored':
      return resultOf(outcome.status, outcome.reason, outcome.row);
  }
}

/** The organizations whose door a caller may work: a key and a staff role any (null). */
async function doorOrganizations(ctx: AppContext, caller: OrganizerCaller): Promise<readonly string[] | null> {
  if (caller.kind !== 'user') return null;
  const granted = await organizationsGranting(ctx, caller.scope, caller.userId, 'events:checkin');
  return granted.tenant ? null : granted.organizations;
}

export async function scanTicket(ctx: AppContext, caller: OrganizerCaller, ref: string, scan: ScanInput) {
  return scanOne(ctx, caller, ref, await doorOrganizations(ctx, caller), scan);
}

/** Offline scans, one after another in the order sent (so an entry then an exit of one ticket both count). */
export async function syncScans(ctx: AppContext, caller: OrganizerCaller, ref: string, scans: readonly ScanInput[]) {
  const event = await doorEvent(ctx, caller, ref);
  const results: ScanResult[] = [];
  for (const scan of scans) results.push(await scanOne(ctx, caller, event.id, null, scan));
  return results;
}

export async function listEventCheckins(ctx: AppContext, caller: OrganizerCaller, ref: string, page: CursorPageQuery) {
  const event = await doorEvent(ctx, caller, ref);
  const result = await listCheckins(ctx.db, caller.scope, event.id, page);
  return { ...result, data: result.data.map(serializeCheckin) };
}
