import type { CreateTicketedEventInput, CursorPageQuery, UpdateTicketedEventInput } from '@svc/contract';
import { checkEventGate, eventGateColumns } from './event-gates';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { newUuidV7 } from '../../../core/ids';
import { paginate, UUID_ANCHOR } from '../../../core/pagination';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { playableExists } from '../../streams';
import { bucketIds, changeEventCapacity, createBucket } from '../capacity/capacity.service';
import { organizationForNewEvent, readableOrganizations, requireEventPermission, type OrganizerCaller } from '../organizer/organizer-access';
import { slugOf, suffixed } from './event-slugs';
import { publicEventChanged } from '../public/public-event-changed';
import { eventsQuery, findEventRow, insertEvent, slugTaken, updateEventRow } from './events.repository';
import { serializeEvent, type TicketedEventRow } from './events.serializer';

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });

/** The event `{event}` names (slug or uuid) that the caller may reach; `404` otherwise, `403` for a member without the role. */
export async function eventFor(ctx: AppContext, db: Executor, caller: OrganizerCaller, ref: string, level: 'read' | 'write', lock = false) {
  const row = await findEventRow(db, caller.scope, ref, { lock });
  if (!row) throw ApiError.notFound('event', ref);
  await requireEventPermission(ctx, caller, row.organization_id, level);
  return row;
}

function checkTimes(startsAt: Date, endsAt: Date) {
  if (endsAt.getTime() <= startsAt.getTime()) throw invalid('ends_at', 'Must be after starts_at.');
}

async function checkLiveStream(db: Executor, scope: Scope, id: string | null | undefined) {
  if (id === null || id === undefined) return;
  if (!id.startsWith('ls_') || !(await playableExists(db, scope, 'ls', id))) throw invalid('live_stream', `No such live stream: '${id}'.`);
}

const slugTakenError = () => ApiError.of('slug_taken', { param: 'slug', message: 'Another event already uses this slug.' });
const slugConflict = (err: unknown) => (isUniqueViolation(err, 'ticketed_events_slug') ? slugTakenError() : err);

export async function createEvent(ctx: AppContext, caller: OrganizerCaller, input: CreateTicketedEventInput) {
  const { scope } = caller;
  const org = await organizationForNewEvent(ctx, caller, input.organization);
  const startsAt = new Date(input.starts_at);
  const endsAt = new Date(input.ends_at);
  checkTimes(startsAt, endsAt);
  await checkLiveStream(ctx.db, scope, input.live_stream);
  await checkEventGate(ctx, scope, org.id, input.gate);
  let slug = input.slug ?? slugOf(input.name);
  if (input.slug === undefined && (await slugTaken(ctx.db, scope, slug))) slug = suffixed(slug);
  // A made-up slug that a concurrent create took first gets another suffix; a slug the caller chose is theirs to change.
  for (let attempt = 0; ; attempt++) {
    try {
      const row = await ctx.db.transaction().execute(async (trx) => {
        const event = await insertEvent(trx, scope, {
          id: newUuidV7(),
          organization_id: org.id,
          name: input.name,
          slug,
          description: input.description ?? null,
          starts_at: startsAt,
          ends_at: endsAt,
          timezone: input.timezone ?? org.timezone,
          venue: input.venue ? JSON.stringify(input.venue) : null,
          capacity: input.capacity ?? null,
          currency: input.currency ?? 'KES',
          requires_approval: input.requires_approval ?? false,
          hold_minutes: input.hold_minutes ?? 15,
          live_stream_id: input.live_stream ?? null,
          ...eventGateColumns(input.gate),
          metadata: JSON.stringify(input.metadata ?? {}),
        });
        await createBucket(trx, scope, { id: bucketIds.event(event.id), event_id: event.id, capacity: event.capacity });
        return event;
      });
      return serializeEvent(row);
    } catch (err) {
      if (input.slug === undefined && attempt < 3 && isUniqueViolation(err, 'ticketed_events_slug')) {
        slug = suffixed(slugOf(input.name));
        continue;
      }
      throw slugConflict(err);
    }
  }
}

export async function listEvents(
  ctx: AppContext,
  caller: OrganizerCaller,
  query: CursorPageQuery & { organization?: string; status?: TicketedEventRow['status'] },
) {
  const readable = await readableOrganizations(ctx, caller);
  let q = eventsQuery(ctx.db, caller.scope);
  if (readable !== null) q = readable.length === 0 ? q.where(({ lit }) => lit(false)) : q.where('organization_id', 'in', readable);
  if (query.organization !== undefined) q = q.where('organization_id', '=', query.organization);
  if (query.status !== undefined) q = q.where('status', '=', query.status);
  const page = await paginate(q, 'ticketed_events.id', query, UUID_ANCHOR);
  return { ...page, data: page.data.map(serializeEvent) };
}

export async function getEvent(ctx: AppContext, caller: OrganizerCaller, ref: string) {
  return serializeEvent(await eventFor(ctx, ctx.db, caller, ref, 'read'));
}

export async function updateEvent(ctx: AppContext, caller: OrganizerCaller, ref: string, input: UpdateTicketedEventInput) {
  const { scope } = caller;
  await checkLiveStream(ctx.db, scope, input.live_stream);
  try {
    const row = await ctx.db.transaction().execute(async (trx) => {
      const event = await eventFor(ctx, trx, caller, ref, 'write', true);
      const startsAt = input.starts_at !== undefined ? new Date(input.starts_at) : event.starts_at;
      const endsAt = input.ends_at !== undefined ? new Date(input.ends_at) : event.ends_at;
      checkTimes(new Date(startsAt), new Date(endsAt));
      if (input.gate !== undefined) await checkEventGate(ctx, scope, event.organization_id, input.gate);
      if (input.slug !== undefined && input.slug !== event.slug && (await slugTaken(trx, scope, input.slug, event.id))) throw slugTakenError();
      if (input.capacity !== undefined && input.capacity !== event.capacity) await changeEventCapacity(trx, scope, event.id, input.capacity);
      await publicEventChanged(ctx, trx, event.id);
      return updateEventRow(trx, scope, event.id, {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.slug !== undefined && { slug: input.slug }),
        ...(input.description !== undefined && { description: input.description }),
        starts_at: startsAt,
        ends_at: endsAt,
        ...(input.timezone !== undefined && { timezone: input.timezone }),
        ...(input.venue !== undefined && { venue: input.venue === null ? null : JSON.stringify(input.venue) }),
        ...(input.capacity !== undefined && { capacity: input.capacity }),
        ...(input.currency !== undefined && { currency: input.currency }),
        ...(input.requires_approval !== undefined && { requires_approval: input.requires_approval }),
        ...(input.hold_minutes !== undefined && { hold_minutes: input.hold_minutes }),
        ...(input.live_stream !== undefined && { live_stream_id: input.live_stream }),
        ...(input.gate !== undefined && eventGateColumns(input.gate)),
        ...(input.metadata !== undefined && { metadata: JSON.stringify(input.metadata) }),
      });
    });
    return serializeEvent(row);
  } catch (err) {
    throw slugConflict(err);
  }
}

/** A published event by slug or uuid (public reads). */
export const findPublishedEventRow = (db: Executor, scope: Scope, ref: string) => findEventRow(db, scope, ref, { published: true });

/** A page of published events, newest first (public reads). */
export async function publishedEventsPage(db: Executor, scope: Scope, query: CursorPageQuery & { organization?: string }) {
  let q = eventsQuery(db, scope).where('status', '=', 'published');
  if (query.organization !== undefined) q = q.where('organization_id', '=', query.organization);
  return paginate(q, 'ticketed_events.id', query, UUID_ANCHOR);
}

/** An organization's published events with a live stream that is not over yet, soonest first. */
export async function upcomingLiveEventRows(db: Executor, scope: Scope, organizationId: string, now: Date, limit: number) {
  return eventsQuery(db, scope)
    .where('status', '=', 'published')
    .where('organization_id', '=', organizationId)
    .where('live_stream_id', 'is not', null)
    .where('ends_at', '>', now)
    .orderBy('starts_at')
    .orderBy('ticketed_events.id')
    .limit(limit)
    .execute();
}
