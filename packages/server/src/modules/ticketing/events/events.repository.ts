import type { Insertable, Updateable } from 'kysely';
import { UUID_ANCHOR } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { TicketedEventsTable } from '../../../db/ticketing.schema';

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** `{event}` is a uuid or a slug; anything else names no event (and is never sent to the database). */
export function eventRefOf(ref: string): { id: string } | { slug: string } | null {
  const lower = ref.toLowerCase();
  if (UUID_ANCHOR.test(lower)) return { id: lower };
  return SLUG.test(ref) && ref.length <= 100 ? { slug: ref } : null;
}

export async function findEventRow(db: Executor, scope: Scope, ref: string, options: { lock?: boolean; published?: boolean } = {}) {
  const by = eventRefOf(ref);
  if (!by) return undefined;
  let q = scoped(db, scope).selectFrom('ticketed_events').selectAll();
  q = 'id' in by ? q.where('id', '=', by.id) : q.where('slug', '=', by.slug);
  if (options.published) q = q.where('status', '=', 'published');
  if (options.lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function slugTaken(db: Executor, scope: Scope, slug: string, exceptId?: string): Promise<boolean> {
  let q = scoped(db, scope).selectFrom('ticketed_events').select('id').where('slug', '=', slug);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function insertEvent(db: Executor, scope: Scope, values: Omit<Insertable<TicketedEventsTable>, 'tenant_id' | 'livemode'>) {
  return scoped(db, scope).insertInto('ticketed_events', values).returningAll().executeTakeFirstOrThrow();
}

export async function updateEventRow(db: Executor, scope: Scope, id: string, values: Updateable<TicketedEventsTable>) {
  return scoped(db, scope)
    .updateTable('ticketed_events')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function eventsQuery(db: Executor, scope: Scope) {
  return scoped(db, scope).selectFrom('ticketed_events').selectAll();
}
