import { createHmac } from 'node:crypto';
import type { AppContext } from '../../../core/context';
import { parseEncryptionKey } from '../../../core/secret-box';
import { countView } from '../analytics/rollups';
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
 * Counts a public read of an event: one statement inserts the view and adds it to the day's rollup, skipped when
 * the visitor viewed the event within the window (the `(event_id, visitor_hash, viewed_at)` index answers the
 * check). Two reads at the same instant may both count; analytics tolerate that, and it costs no lock.
 */
export async function countPageView(ctx: AppContext, event: TicketedEventRow, visitor: Visitor): Promise<void> {
  await countView(ctx.db, event, visitorHashOf(ctx, visitor), PAGE_VIEW_WINDOW_MINUTES);
}
