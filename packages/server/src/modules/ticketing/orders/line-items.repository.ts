import type { LineItem } from '@svc/contract';
import type { Insertable, Selectable } from 'kysely';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { LineItemsTable } from '../../../db/ticketing.schema';
import type { OrderRow } from './orders.repository';

export type LineItemRow = Selectable<LineItemsTable>;
export type NewLineItem = Insertable<LineItemsTable> & { id: string };

/** A ticket order's one line has the order's id with `li_` for `ord_`: found without a read. */
export const ticketLineItemId = (orderId: string) => `li_${orderId.slice('ord_'.length)}`;

type TicketOrderFields = Pick<OrderRow, 'id' | 'tenant_id' | 'livemode' | 'event_id' | 'ticket_type_id' | 'slot_id' | 'quantity' | 'amount_total' | 'amount_discount' | 'currency'> & {
  amount_shipping?: number;
  /** Add-ons' lines and shipping: not the ticket's. */
  amount_add_ons?: number | null;
  created_at?: Date;
};

/** The row of a ticket order's line, as inserted with the order (the ticket type's name is its description). */
export function ticketLineItemRow(order: TicketOrderFields, ticketTypeName: string): NewLineItem {
  const other = order.amount_add_ons ?? order.amount_shipping ?? 0;
  const subtotal = order.amount_total + order.amount_discount - other;
  return {
    id: ticketLineItemId(order.id),
    tenant_id: order.tenant_id,
    livemode: order.livemode,
    order_id: order.id,
    kind: 'ticket',
    description: ticketTypeName,
    quantity: order.quantity,
    unit_amount: Math.floor(subtotal / order.quantity),
    amount_subtotal: subtotal,
    amount_discount: order.amount_discount,
    amount_total: order.amount_total - other,
    currency: order.currency,
    ticket: JSON.stringify({ event: order.event_id, ticket_type: order.ticket_type_id, event_slot: order.slot_id }),
  };
}

/**
 * A ticket order's line as read, for an order whose line was just written or cannot have changed since (an
 * order being paid has had nothing refunded): booking and payment show it without reading it back.
 */
export function ticketLineItem(order: TicketOrderFields, ticketTypeName: string): LineItemRow {
  const row = ticketLineItemRow(order, ticketTypeName);
  const at = order.created_at ?? new Date();
  return {
    ...row,
    position: 0,
    amount_discount: order.amount_discount,
    quantity_refunded: 0,
    ticket: { event: order.event_id!, ticket_type: order.ticket_type_id!, event_slot: order.slot_id },
    product: null,
    subscription: null,
    created_at: at,
    updated_at: at,
  };
}

export async function insertLineItems(db: Executor, rows: readonly NewLineItem[]): Promise<void> {
  if (rows.length) await db.insertInto('line_items').values([...rows]).execute();
}

/** The lines of a page of orders, by order, in their position. */
export async function lineItemsOfOrders(db: Executor, scope: Scope, orderIds: readonly string[]): Promise<Map<string, LineItemRow[]>> {
  const byOrder = new Map<string, LineItemRow[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await scoped(db, scope).selectFrom('line_items').selectAll().where('order_id', 'in', [...orderIds]).orderBy('order_id').orderBy('position').execute();
  for (const row of rows) byOrder.set(row.order_id, [...(byOrder.get(row.order_id) ?? []), row]);
  return byOrder;
}

const iso = (d: unknown) => (d === null || d === undefined ? null : new Date(d as string).toISOString());

export function serializeLineItem(row: LineItemRow): LineItem {
  const p = row.product as Record<string, unknown> | null;
  const s = row.subscription as Record<string, unknown> | null;
  return {
    id: row.id,
    object: 'line_item',
    kind: row.kind,
    description: row.description,
    quantity: row.quantity,
    unit_amount: row.unit_amount,
    amount_subtotal: row.amount_subtotal,
    amount_discount: row.amount_discount,
    amount_total: row.amount_total,
    currency: row.currency,
    quantity_refunded: row.quantity_refunded,
    ticket: row.ticket ? { event: row.ticket.event, ticket_type: row.ticket.ticket_type, event_slot: row.ticket.event_slot ?? null } : null,
    product: p ? { product: String(p.product), variant: String(p.variant), sku: (p.sku as string | null) ?? null, kind: String(p.kind) } : null,
    subscription: s
      ? { subscription: String(s.subscription), tier: String(s.tier), period_start: iso(s.period_start), period_end: iso(s.period_end) }
      : null,
  };
}
