import type { CursorPageQuery } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { bucketsByIdOf, type BucketState } from '../capacity/capacity.service';
import { findPublishedEventRow, publishedEventsPage, upcomingLiveEventRows } from '../events/events.service';
import type { TicketedEventRow } from '../events/events.serializer';
import { slotsOf, type SlotRow } from '../slots/slots.service';
import type { TicketTypeRow } from '../ticket-types/ticket-types.serializer';
import { ticketTypesOf } from '../ticket-types/ticket-types.service';
import { availabilityOf, slotAvailabilityOf } from './availability';
import { referralTouched } from '../orders/order-listeners';
import { countPageView, visitorHashOf, type Visitor } from './page-views';
import { PublicEventCache, type PublicCatalogue } from './public-event-cache';
import { publicReadsOf } from './public-parts';
import { eventGateOf, lockedEvents } from '../events/event-gates';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Published events as anyone sees them: prices, sale windows and availability, never an attendee, buyer or count. */
async function publicViews(ctx: AppContext, scope: Scope, events: readonly TicketedEventRow[], viewer: string | null) {
  const ids = events.map((e) => e.id);
  const [ticketTypes, slots, buckets, locked] = await Promise.all([
    ticketTypesOf(ctx.db, scope, ids),
    slotsOf(ctx.db, scope, ids),
    bucketsByIdOf(ctx.db, scope, ids),
    lockedEvents(ctx, scope, events, viewer),
  ]);
  const now = ctx.clock ? ctx.clock() : new Date();
  return events.map((event) =>
    publicViewOf(
      { event, ticketTypes: ticketTypes.filter((tt) => tt.event_id === event.id), slots: slots.filter((s) => s.event_id === event.id) },
      buckets,
      now,
      locked.has(event.id),
    ),
  );
}

/**
 * One published event's public view: its catalogue (cached or read) with its buckets as read now. A gated event
 * the viewer may not book is `locked`: no description and nothing about its stream.
 */
function publicViewOf({ event, ticketTypes, slots }: PublicCatalogue, buckets: ReadonlyMap<string, BucketState>, now: Date, locked: boolean) {
  return {
    id: event.id,
    object: 'ticketed_event' as const,
    livemode: event.livemode,
    organization: event.organization_id,
    name: event.name,
    slug: event.slug,
    description: locked ? null : event.description,
    starts_at: iso(event.starts_at)!,
    ends_at: iso(event.ends_at)!,
    timezone: event.timezone,
    venue: event.venue as { name: string } | null,
    currency: event.currency,
    requires_approval: event.requires_approval,
    status: event.status as 'published',
    has_live_stream: !locked && event.live_stream_id !== null,
    gate: eventGateOf(event),
    locked,
    ticket_types: ticketTypes.map((tt) => ({
      id: tt.id,
      object: 'ticket_type' as const,
      name: tt.name,
      description: tt.description,
      pricing_mode: tt.pricing_mode,
      price: tt.price,
      flexipay_min_price: tt.flexipay_min_price,
      flexipay_max_price: tt.flexipay_max_price,
      min_per_order: tt.min_per_order,
      max_per_order: tt.max_per_order,
      sale_starts_at: iso(tt.sale_starts_at),
      sale_ends_at: iso(tt.sale_ends_at),
      allow_pay_later: tt.allow_pay_later,
      admits: tt.admits,
      extra_fields: tt.extra_fields,
      availability: availabilityOf(tt, event, slots, buckets, now),
    })),
    slots: slots.map((slot) => ({
      id: slot.id,
      object: 'event_slot' as const,
      starts_at: iso(slot.starts_at)!,
      ends_at: iso(slot.ends_at)!,
      availability: slotAvailabilityOf(slot, event.id, buckets),
    })),
  };
}

/** A published event with its ticket types and slots, as the public page caches it. */
async function readCatalogue(db: Executor, scope: Scope, ref: string): Promise<PublicCatalogue | undefined> {
  const event = await findPublishedEventRow(db, scope, ref);
  if (!event) return undefined;
  const [ticketTypes, slots]: [TicketTypeRow[], SlotRow[]] = await Promise.all([ticketTypesOf(db, scope, [event.id]), slotsOf(db, scope, [event.id])]);
  return { event, ticketTypes, slots };
}
export type PublicTicketedEvent = ReturnType<typeof publicViewOf>;

/** `GET /v1/events` for buyers: published events, newest first. */
export async function listPublicEvents(ctx: AppContext, scope: Scope, query: CursorPageQuery & { organization?: string }, viewer: string | null = null) {
  const page = await publishedEventsPage(ctx.db, scope, query);
  return { ...page, data: await publicViews(ctx, scope, page.data, viewer) };
}

/**
 * `GET /v1/events/{event}` for buyers: a published event by slug or uuid; a visitor's read counts a page view.
 * The catalogue comes from the process's cache; the buckets behind availability are read for every request (with
 * the other public reads arriving at the same moment, in one statement), so sold out is never stale.
 */
export async function showPublicEvent(ctx: AppContext, scope: Scope, ref: string, visitor: Visitor | null, viewer: string | null = null) {
  return (await showPublicEventReferred(ctx, scope, ref, visitor, undefined, viewer)).view;
}

/**
 * The public read, and with a promoter's `?ref=CODE` from a visitor the click counted and the referral token
 * to keep (products-api § 4.3). Without a code it costs nothing more than the read.
 */
export async function showPublicEventReferred(ctx: AppContext, scope: Scope, ref: string, visitor: Visitor | null, code: string | undefined, viewer: string | null = null) {
  const reads = publicReadsOf(ctx);
  const catalogue = await reads.events.read(PublicEventCache.keyOf(scope, ref), () => readCatalogue(ctx.db, scope, ref));
  if (!catalogue) throw ApiError.notFound('event', ref);
  const buckets = await reads.buckets.add({ scope, eventId: catalogue.event.id });
  const now = ctx.clock ? ctx.clock() : new Date();
  const locked = (await lockedEvents(ctx, scope, [catalogue.event], viewer)).has(catalogue.event.id);
  const view = publicViewOf(catalogue, buckets, now, locked);
  if (visitor) countPageView(ctx, catalogue.event, visitor, new Date());
  const referral =
    visitor && code
      ? await referralTouched(ctx.db, scope, { code, eventId: catalogue.event.id, organizationId: catalogue.event.organization_id, visitor: visitorHashOf(ctx, visitor), now })
      : null;
  return { view, referral };
}

/** A creator's upcoming live shows (the public capsule's `featured.upcoming_live`), as the public reads show them. */
export async function upcomingLiveEvents(ctx: AppContext, scope: Scope, organizationId: string, limit = 100, viewer: string | null = null) {
  const now = ctx.clock ? ctx.clock() : new Date();
  return publicViews(ctx, scope, await upcomingLiveEventRows(ctx.db, scope, organizationId, now, limit), viewer);
}
