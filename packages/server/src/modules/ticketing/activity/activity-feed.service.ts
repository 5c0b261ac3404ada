import type { ActivityItem } from '@svc/contract';
import { sql } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { TenantPrincipal } from '../../../core/principal';

export interface FeedQuery {
  type?: 'purchases' | 'events' | 'all' | null | undefined;
  tenant_slug?: string | undefined;
  organization_slug?: string | undefined;
  event_slug?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

const badCursor = () => ApiError.of('validation_failed', { param: 'cursor', message: 'This cursor is not one the feed gave.', details: { cursor: ['Unknown cursor.'] } });
const encode = (seq: string) => Buffer.from(`act:${seq}`).toString('base64url');
function decode(cursor: string): string {
  const m = /^act:(\d{1,18})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw badCursor();
  return m[1]!;
}

const plural = (n: number) => (n === 1 ? '1 ticket' : `${n} tickets`);
function messageOf(type: ActivityItem['type'], actor: string | null, quantity: number | null, event: string): string {
  switch (type) {
    case 'purchase':
      return `${actor ?? 'Someone'} got ${plural(quantity ?? 1)} to ${event}`;
    case 'event_published':
      return `${event} is on sale`;
    case 'event_sold_out':
      return `${event} is sold out`;
    case 'event_starting':
      return `${event} starts soon`;
  }
}

/**
 * The feed of the caller's environment, newest first: only events that are public now (published or completed);
 * a `tenant_slug` other than the caller's tenant matches nothing. Paged by the item's sequence number.
 */
export async function activityFeed(ctx: AppContext, caller: TenantPrincipal, query: FeedQuery) {
  const types = query.type === 'purchases' ? ['purchase'] : query.type === 'events' ? ['event_published', 'event_sold_out', 'event_starting'] : null;
  const after = query.cursor ? decode(query.cursor) : null;
  const { tenantId, livemode } = caller.scope;
  const { rows } = await sql<Record<string, any>>`
    select a.seq::text as seq, a.type, a.actor_name, a.quantity, a.created_at,
      e.id as event_id, e.name as event_name, e.slug as event_slug, e.starts_at,
      o.id as org_id, o.name as org_name, o.handle as org_handle
    from activity_items a
    join ticketed_events e on e.id = a.event_id
    join organizations o on o.id = a.organization_id
    join tenants t on t.id = a.tenant_id
    where a.tenant_id = ${tenantId} and a.livemode = ${livemode} and e.status in ('published', 'completed')
      ${types ? sql`and a.type in (${sql.join(types)})` : sql``}
      ${query.tenant_slug !== undefined ? sql`and t.code = ${query.tenant_slug}` : sql``}
      ${query.organization_slug !== undefined ? sql`and o.handle = ${query.organization_slug}` : sql``}
      ${query.event_slug !== undefined ? sql`and e.slug = ${query.event_slug}` : sql``}
      ${after ? sql`and a.seq < ${after}::bigint` : sql``}
    order by a.seq desc
    limit ${query.limit + 1}`.execute(ctx.db);
  const page = rows.slice(0, query.limit);
  const data: ActivityItem[] = page.map((r) => ({
    id: `act_${r.seq}`,
    object: 'activity_item',
    type: r.type,
    message: messageOf(r.type, r.actor_name, r.quantity, r.event_name),
    actor: r.actor_name,
    quantity: r.quantity,
    event: { id: r.event_id, name: r.event_name, slug: r.event_slug, starts_at: new Date(r.starts_at).toISOString() },
    organization: { id: r.org_id, name: r.org_name, handle: r.org_handle },
    created_at: new Date(r.created_at).toISOString(),
  }));
  const hasMore = rows.length > query.limit;
  return { data, meta: { has_more: hasMore, cursor: hasMore ? encode(page[page.length - 1]!.seq) : null } };
}
