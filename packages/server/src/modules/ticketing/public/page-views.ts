import { createHmac } from 'node:crypto';
import type { AppContext } from '../../../core/context';
import { parseEncryptionKey } from '../../../core/secret-box';
import type { TicketedEventRow } from '../events/events.serializer';
import { publicReadsOf } from './public-parts';

export interface Visitor {
  ip: string;
  userAgent: string;
  /** The public read's `source`, as sent. */
  source?: string | undefined;
}

const MAX_SOURCE_LENGTH = 100;

/**
 * A view's traffic source as the analytics count it: a URL by its host, lowercase, without `www.`, spaces and
 * control characters as one space, at most 100 characters; null (direct) when nothing is left.
 */
export function trafficSourceOf(sent: string | undefined): string | null {
  if (sent === undefined) return null;
  let source = sent.trim();
  if (/^https?:\/\//i.test(source)) {
    // A referrer that is not a URL after all names nothing.
    if (!URL.canParse(source)) return null;
    source = new URL(source).hostname;
  }
  source = source
    .toLowerCase()
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim()
    .replace(/^www\./, '')
    .slice(0, MAX_SOURCE_LENGTH)
    .trim();
  return source === '' ? null : source;
}

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
 * Counts a public read of an event: the view waits in memory and is written with the others of its second
 * (`PageViewCounter`), skipped when the visitor viewed the event within the window. Two views on two processes
 * at the same instant may both count; analytics tolerate that, and it costs no lock.
 */
export function countPageView(ctx: AppContext, event: TicketedEventRow, visitor: Visitor, at: Date): void {
  publicReadsOf(ctx).pageViews.count({ event, visitorHash: visitorHashOf(ctx, visitor), at, source: trafficSourceOf(visitor.source) });
}

/** Writes the page views counted so far on this process (the worker does so every second; tests call it). */
export const flushPageViews = (ctx: AppContext): Promise<void> => publicReadsOf(ctx).pageViews.flush();
