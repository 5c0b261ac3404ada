import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../../../core/context';
import { parseEncryptionKey } from '../../../core/secret-box';
import type { TicketedEventRow } from '../events/events.serializer';

export interface Visitor {
  ip: string;
  userAgent: string;
}

/** Page views are deduplicated per visitor and event for this long. */
export const PAGE_VIEW_WINDOW_MINUTES = 30;

const keys = new WeakMap<AppContext, Buffer>();

/** A keyed hash of address and user agent: a visitor can be counted once, and the address is never stored. */
export function visitorHashOf(ctx: AppContext, visitor: Visitor): string {
  let key = keys.get(ctx);
  if (!key) {
    key = createHmac('sha256', parseEncryptionKey(ctx.config.SVC_ENCRYPTION_KEY!)).update('svc:page-view-visitor').digest();
    keys.set(ctx, key);
  }
  return createHmac('sha256', key).update(`${visitor.ip}\n${visitor.userAgent}`).digest('base64url');
}

/**
 * Counts a public read of an event: one insert, skipped when the visitor viewed the event within the window
 * (the `(event_id, visitor_hash, viewed_at)` index answers the check). Two reads at the same instant may both
 * count; analytics tolerate that, and it costs no lock.
 */
export async function countPageView(ctx: AppContext, event: TicketedEventRow, visitor: Visitor): Promise<void> {
  const hash = visitorHashOf(ctx, visitor);
  await sql`
    insert into event_page_views (tenant_id, livemode, organization_id, event_id, visitor_hash)
    select ${event.tenant_id}, ${event.livemode}, ${event.organization_id}, ${event.id}::uuid, ${hash}
    where not exists (
      select 1 from event_page_views
      where event_id = ${event.id}::uuid and visitor_hash = ${hash}
        and viewed_at > now() - make_interval(mins => ${PAGE_VIEW_WINDOW_MINUTES})
    )`.execute(ctx.db);
}
