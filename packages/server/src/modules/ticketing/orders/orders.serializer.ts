import type { Order } from '@svc/contract';
import { linkBaseOf, type WhitelabelSlot } from '../../../core/branding';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { checkoutUrl } from '../booking/checkout-sessions';
import { ticketsOfOrders, type TicketRow } from '../tickets/ticket-rows.service';
import { lineItemsOfOrders, serializeLineItem, type LineItemRow } from './line-items.repository';
import { addOnsOf, registeredOrderKind } from './order-kinds';
import type { OrderRow } from './orders.repository';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** What building `checkout_url` needs: the deployment's base address and the tenant's domains. */
export interface OrderLinks {
  config: { baseUrl: string };
  whitelabel?: WhitelabelSlot;
}

/**
 * The order as the API shows it; attendees carry their ticket's id and status, never its secret. `checkoutUrl`
 * is the open checkout page of a pending order with something due (`null` when unknown to the caller).
 */
export function serializeOrder(
  row: OrderRow,
  tickets: readonly TicketRow[],
  couponCode: string | null,
  lineItems: readonly LineItemRow[],
  more: { checkoutUrl?: string | null; extras?: Partial<Order> } = {},
): Order {
  const order: Order = {
    id: row.id,
    object: 'order',
    livemode: row.livemode,
    code: row.code,
    status: row.status,
    kind: row.kind,
    organization: row.organization_id,
    event: row.event_id,
    ticket_type: row.ticket_type_id,
    event_slot: row.slot_id,
    quantity: row.quantity,
    line_items: lineItems.map(serializeLineItem),
    amount_subtotal: row.amount_subtotal ?? row.amount_total + row.amount_discount - (row.amount_shipping ?? 0),
    amount_shipping: row.amount_shipping ?? 0,
    amount_total: row.amount_total,
    amount_discount: row.amount_discount,
    amount_paid: row.amount_paid,
    amount_refunded: row.amount_refunded,
    amount_refund_pending: row.amount_refund_pending,
    amount_due: Math.max(0, row.amount_total - row.amount_paid),
    currency: row.currency,
    coupon: couponCode,
    buyer: { name: row.buyer_name, email: row.buyer_email, phone: row.buyer_phone },
    customer: row.customer_id,
    attendees: tickets.map((t) => ({
      first_name: t.first_name,
      last_name: t.last_name,
      email: t.email,
      phone: t.phone,
      extra_data: t.extra_data,
      ticket: { id: t.id, status: t.status },
    })),
    subscription: row.subscription_id ?? null,
    // Product orders' shipping and fulfilment come from commerce (`extras`).
    shipping_method: null,
    shipping_address: null,
    fulfillment_status: null,
    fulfillment: null,
    checkout_url: row.status === 'pending' && row.amount_paid < row.amount_total ? (more.checkoutUrl ?? null) : null,
    expires_at: iso(row.expires_at),
    pay_later: row.pay_later,
    redirect_url: row.redirect_url,
    external_id: row.external_id,
    metadata: row.metadata,
    attribution: row.attribution ?? null,
    paid_at: iso(row.paid_at),
    cancelled_at: iso(row.cancelled_at),
    expired_at: iso(row.expired_at),
    created_at: iso(row.created_at)!,
  };
  return more.extras ? { ...order, ...more.extras } : order;
}

/** The open checkout pages of the pending orders among `rows` with something due, by order id. */
async function checkoutUrlsOf(db: Executor, scope: Scope, rows: readonly OrderRow[], links: OrderLinks): Promise<Map<string, string>> {
  const due = rows.filter((r) => r.status === 'pending' && r.amount_paid < r.amount_total);
  if (due.length === 0) return new Map();
  const sessions = await scoped(db, scope)
    .selectFrom('checkout_sessions')
    .select(['id', 'order_id'])
    .where('order_id', 'in', due.map((r) => r.id))
    .where('status', '=', 'open')
    .execute();
  const urls = new Map<string, string>();
  const orgOf = new Map(due.map((r) => [r.id, r.organization_id]));
  for (const s of sessions) urls.set(s.order_id, checkoutUrl(await linkBaseOf(links, scope, orgOf.get(s.order_id) ?? null, 'checkout'), s.id));
  return urls;
}

/** What each kind's module adds to its orders (products-api § 3.1), read once for the page. */
async function kindExtras(db: Executor, scope: Scope, rows: readonly OrderRow[]): Promise<Map<string, Partial<Order>>> {
  const extras = new Map<string, Partial<Order>>();
  for (const kind of new Set(rows.map((r) => r.kind))) {
    const handler = kind === 'ticket' ? undefined : registeredOrderKind(kind);
    if (!handler?.serialize) continue;
    for (const [id, more] of await handler.serialize(db, scope, rows.filter((r) => r.kind === kind))) extras.set(id, more);
  }
  // Ticket orders with add-ons show their shipping and fulfilment as product orders do.
  const withAddOns = rows.filter((r) => addOnsOf(r));
  const products = withAddOns.length ? registeredOrderKind('product') : undefined;
  if (products?.serialize) for (const [id, more] of await products.serialize(db, scope, withAddOns)) extras.set(id, more);
  return extras;
}

/**
 * Orders as shown, with their tickets, coupon codes and line items read in one query each for the whole page;
 * with `links`, pending orders show their checkout page.
 */
export async function presentOrders(db: Executor, scope: Scope, rows: readonly OrderRow[], links?: OrderLinks): Promise<Order[]> {
  const ids = rows.map((r) => r.id);
  const lineItems = await lineItemsOfOrders(db, scope, ids);
  const urls = links ? await checkoutUrlsOf(db, scope, rows, links) : new Map<string, string>();
  const extras = await kindExtras(db, scope, rows);
  const tickets = rows.some((r) => r.kind === 'ticket') ? await ticketsOfOrders(db, scope, ids) : [];
  const couponIds = [...new Set(rows.map((r) => r.coupon_id).filter((id): id is string => id !== null))];
  const coupons = couponIds.length
    ? await scoped(db, scope).selectFrom('coupons').select(['id', 'code']).where('id', 'in', couponIds).execute()
    : [];
  const codeOf = new Map(coupons.map((c) => [c.id, c.code]));
  return rows.map((r) =>
    serializeOrder(
      r,
      tickets.filter((t) => t.order_id === r.id),
      r.coupon_id ? (codeOf.get(r.coupon_id) ?? null) : null,
      lineItems.get(r.id) ?? [],
      { checkoutUrl: urls.get(r.id) ?? null, extras: extras.get(r.id) },
    ),
  );
}

export const presentOrder = async (db: Executor, scope: Scope, row: OrderRow, links?: OrderLinks): Promise<Order> => (await presentOrders(db, scope, [row], links))[0]!;
