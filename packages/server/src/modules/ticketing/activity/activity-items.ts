import { sql } from 'kysely';
import type { Executor } from '../../../db/database';
import type { OrderRow } from '../orders/order-rows.service';
import type { TicketRow } from '../tickets/ticket-rows.service';

interface EventRef {
  id: string;
  tenant_id: string;
  livemode: boolean;
  organization_id: string;
}

/** "Amina Kamau" -> "Amina K.": a first name and an initial, never the full name or a contact. */
export function shortNameOf(name: string | null | undefined): string | null {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return null;
  const first = parts[0]!;
  return parts.length > 1 ? `${first} ${parts[parts.length - 1]![0]!.toUpperCase()}.` : first;
}

const itemInsert = (event: EventRef, type: string, actor: string | null = null, quantity: number | null = null) => sql`
  insert into activity_items (tenant_id, livemode, organization_id, event_id, type, actor_name, quantity)
  values (${event.tenant_id}, ${event.livemode}, ${event.organization_id}, ${event.id}::uuid, ${type}, ${actor}, ${quantity})
  on conflict do nothing`;

async function insertItem(db: Executor, event: EventRef, type: string, actor: string | null = null, quantity: number | null = null) {
  await itemInsert(event, type, actor, quantity).execute(db);
}

/** A paid order, as "Amina K. got 2 tickets": comps are gifts, not purchases, and stay out (`null`). */
export function purchaseItem(paid: OrderRow, tickets: readonly TicketRow[]): PurchaseItem | null {
  if (paid.comp) return null;
  const first = tickets[0];
  const actor = shortNameOf(paid.buyer_name) ?? shortNameOf([first?.first_name, first?.last_name].filter(Boolean).join(' '));
  return { event: { ...paid, id: paid.event_id! }, actor, quantity: paid.seats };
}

export interface PurchaseItem {
  event: EventRef;
  actor: string | null;
  quantity: number;
}

/** The purchases of orders paid together as one insert, to run: the same text for any number of them. */
export const purchasesInsert = (items: readonly PurchaseItem[]) => sql`
  insert into activity_items (tenant_id, livemode, organization_id, event_id, type, actor_name, quantity)
  select tenant_id, livemode, organization_id, event_id, 'purchase', actor_name, quantity
  from unnest(${items.map((i) => i.event.tenant_id)}::text[], ${items.map((i) => i.event.livemode)}::boolean[],
              ${items.map((i) => i.event.organization_id)}::text[], ${items.map((i) => i.event.id)}::uuid[],
              ${items.map((i) => i.actor)}::text[], ${items.map((i) => i.quantity)}::integer[])
    as p(tenant_id, livemode, organization_id, event_id, actor_name, quantity)
  on conflict do nothing`;

export const recordEventPublished = (db: Executor, event: EventRef) => insertItem(db, event, 'event_published');

/**
 * Called right after a booking's holds, with the buckets as the holds left them: when they took the event's
 * last seat (its `e:` bucket is full), the event sold out. Reported once per event.
 */
export async function recordIfSoldOut(db: Executor, order: OrderRow, held: readonly { id: string; capacity: number | null; held: number; sold: number }[]) {
  const e = held.find((b) => b.id === `e:${order.event_id}`);
  if (e && e.capacity !== null && e.held + e.sold >= e.capacity) await insertItem(db, { ...order, id: order.event_id! }, 'event_sold_out');
}

/** Published events starting within the hour get their `event_starting` item (once: the unique index). */
export async function recordEventsStarting(db: Executor, now: Date): Promise<number> {
  const { numAffectedRows } = await sql`
    insert into activity_items (tenant_id, livemode, organization_id, event_id, type, created_at)
    select tenant_id, livemode, organization_id, id, 'event_starting', ${now}::timestamptz from ticketed_events
    where status = 'published' and starts_at > ${now}::timestamptz and starts_at <= ${now}::timestamptz + interval '1 hour'
    on conflict do nothing`.execute(db);
  return Number(numAffectedRows ?? 0);
}
