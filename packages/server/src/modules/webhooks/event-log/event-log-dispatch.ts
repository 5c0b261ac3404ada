import type { Scope as ScopeName } from '@svc/contract';
import { hasScope } from '../../../core/auth/route-access-check';
import { ApiError } from '../../../core/errors';
import type { TenantPrincipal } from '../../../core/principal';

/**
 * `/v1/events` serves the event log and the public listing of ticketed events (docs/decisions.md, "The two
 * /v1/events"). A publishable key or the tenant header always reads ticketed events; a secret or restricted key
 * (and a signed-in member of the console) reads the log unless it asks for ticketed events (`object=ticketed_event` on the list, a non-`evt_` id on the
 * retrieve). The route admits a restricted key with either scope; here the one the answer needs is required.
 */
export type EventLogCaller = Extract<TenantPrincipal, { kind: 'secret' | 'restricted' | 'publishable' | 'customer' | 'tenant-header' | 'user' }>;

/** Who reads the log: keys, and members whose role grants `developers:read` (the route's permission checked it). */
const isKey = (caller: EventLogCaller) => caller.kind === 'secret' || caller.kind === 'restricted' || caller.kind === 'user';

function requireScope(caller: EventLogCaller, scope: ScopeName) {
  if (caller.kind === 'restricted' && !hasScope(caller.key.scopes ?? [], scope)) {
    throw ApiError.of('missing_scope', { message: `This key lacks the scope ${scope}.`, details: { required_scope: scope } });
  }
}

function requireEventsProduct(caller: EventLogCaller) {
  if (!caller.tenant.products.includes('events')) {
    throw ApiError.of('product_not_enabled', { message: 'The events product is not enabled for this tenant.' });
  }
}

/** Which of the two the caller reads; throws when its credential cannot read that one. */
export function readsTicketedEvents(caller: EventLogCaller, asked: { object?: string; id?: string }): boolean {
  // An `evt_` id is always the log's, which only keys read.
  if (!isKey(caller) && asked.id?.startsWith('evt_')) {
    throw ApiError.of('insufficient_permissions', { message: 'The event log takes a secret or restricted key.' });
  }
  const ticketed = !isKey(caller) || (asked.id !== undefined ? !asked.id.startsWith('evt_') : asked.object === 'ticketed_event');
  if (ticketed) {
    requireScope(caller, 'events:read');
    requireEventsProduct(caller);
    return true;
  }
  requireScope(caller, 'platform:read');
  return false;
}

/** Only buyers' reads count as page views: a key reading an event is the organizer's integration, not a visit. */
export function countsPageViews(caller: EventLogCaller): boolean {
  return !isKey(caller);
}
