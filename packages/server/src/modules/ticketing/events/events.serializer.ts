import type { Selectable } from 'kysely';
import type { TicketedEventsTable } from '../../../db/ticketing.schema';
import { eventGateOf } from './event-gates';

export type TicketedEventRow = Selectable<TicketedEventsTable>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The event as the organizer routes (and `events.event.published`) show it. */
export function serializeEvent(row: TicketedEventRow) {
  return {
    id: row.id,
    object: 'ticketed_event' as const,
    livemode: row.livemode,
    organization: row.organization_id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    starts_at: iso(row.starts_at)!,
    ends_at: iso(row.ends_at)!,
    timezone: row.timezone,
    venue: row.venue as { name: string; address?: string | null; city?: string | null; country?: string | null } | null,
    capacity: row.capacity,
    currency: row.currency,
    requires_approval: row.requires_approval,
    hold_minutes: row.hold_minutes,
    live_stream: row.live_stream_id,
    gate: eventGateOf(row),
    status: row.status,
    published_at: iso(row.published_at),
    cancelled_at: iso(row.cancelled_at),
    metadata: row.metadata,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}
export type SerializedEvent = ReturnType<typeof serializeEvent>;
