import type { Transaction } from 'kysely';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import type { OrderAttribution } from '../../../db/ticketing.schema';
import { lineItemsOfOrders } from './line-items.repository';
import type { OrderRow } from './orders.repository';

/** One item of an order as listeners see it, whatever kind the order is. */
export interface OrderItem {
  kind: 'ticket' | 'product';
  /** Tickets: the event and ticket type; products: `null`. */
  event_id: string | null;
  ticket_type_id: string | null;
  /** Products: the `prd_`; tickets: `null`. */
  product_id: string | null;
  quantity: number;
  /** After discount, in minor units. */
  amount_total: number;
  /** When the item is used up (a ticket: its event's end; a product: the payment): commissions approve after it. */
  ends_at: Date;
}

/** What an order's maker knows when it is made, for attribution. */
export interface AttributionRequest {
  organizationId: string;
  customerId: string | null;
  /** The promoter a coupon on the order is bound to. */
  couponPromoterId: string | null;
  referral: string | null;
  ref: string | null;
  items: readonly OrderItem[];
  now: Date;
}

/**
 * What another product learns of orders, registered from its module's setup (promoters): ticketing imports
 * none of them. Each is called only for orders that concern it (an attribution asked for, an attributed
 * order paid or refunded), so orders without them pay nothing.
 */
export interface OrderListener {
  /** At order creation, outside its transaction: the attribution the order keeps, or `null`. Never throws for bad input. */
  attribute(db: Executor, scope: Scope, request: AttributionRequest): Promise<OrderAttribution | null>;
  /** In the paying transaction, for an attributed order. */
  paid(trx: Transaction<DB>, scope: Scope, order: OrderRow, items: readonly OrderItem[]): Promise<void>;
  /** In the transaction that counted a succeeded refund on an attributed order (`amount_refunded` already moved). */
  refunded(trx: Transaction<DB>, scope: Scope, order: OrderRow): Promise<void>;
  /** A public read of an event with `?ref=CODE`: counts the click; a valid code answers the referral to keep. */
  touched(db: Executor, scope: Scope, touch: ReferralTouch): Promise<Referral | null>;
  /** The organization of a promoter of this scope, or `null` (a coupon may be bound only to its event's organization's). */
  promoterOrganization(db: Executor, scope: Scope, promoterId: string): Promise<string | null>;
}

export interface ReferralTouch {
  code: string;
  eventId: string;
  organizationId: string;
  /** The page view's keyed visitor hash. */
  visitor: string;
  now: Date;
}

export interface Referral {
  token: string;
  expires_at: string;
}

let listener: OrderListener | null = null;

export function registerOrderListener(l: OrderListener): void {
  listener = l;
}

/** A ticket order's one item. */
export const ticketItemsOf = (order: { event_id: string | null; ticket_type_id: string | null; quantity: number; amount_total: number }, endsAt: Date): OrderItem[] => [
  { kind: 'ticket', event_id: order.event_id, ticket_type_id: order.ticket_type_id, product_id: null, quantity: order.quantity, amount_total: order.amount_total, ends_at: endsAt },
];

/** A product or subscription order's items from its lines (subscriptions earn no commission, so they are left out). */
export async function kindItemsOf(db: Executor, scope: Scope, order: OrderRow, paidAt: Date): Promise<OrderItem[]> {
  const lines = (await lineItemsOfOrders(db, scope, [order.id])).get(order.id) ?? [];
  return lines
    .filter((l) => l.kind === 'product')
    .map((l) => ({
      kind: 'product' as const,
      event_id: null,
      ticket_type_id: null,
      product_id: String((l.product as { product?: string } | null)?.product ?? ''),
      quantity: l.quantity,
      amount_total: l.amount_total,
      ends_at: paidAt,
    }));
}

export async function attributeOrder(db: Executor, scope: Scope, request: AttributionRequest): Promise<OrderAttribution | null> {
  if (!listener || (!request.ref && !request.referral && !request.couponPromoterId)) return null;
  return listener.attribute(db, scope, request);
}

export async function referralTouched(db: Executor, scope: Scope, touch: ReferralTouch): Promise<Referral | null> {
  return listener ? listener.touched(db, scope, touch) : null;
}

export async function orderPaid(trx: Transaction<DB>, scope: Scope, order: OrderRow, items: () => Promise<readonly OrderItem[]> | readonly OrderItem[]): Promise<void> {
  if (listener && order.attribution) await listener.paid(trx, scope, order, await items());
}

export async function orderRefunded(trx: Transaction<DB>, scope: Scope, order: OrderRow): Promise<void> {
  if (listener && order.attribution) await listener.refunded(trx, scope, order);
}

/** The organization of a promoter, or `null` when there is none (or no promoters product to ask). */
export async function promoterOrganization(db: Executor, scope: Scope, promoterId: string): Promise<string | null> {
  return listener ? listener.promoterOrganization(db, scope, promoterId) : null;
}
