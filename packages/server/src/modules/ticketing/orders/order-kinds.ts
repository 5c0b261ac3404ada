import type { FulfillmentStatus, Order, OrderKind, ShippingAddressInput, ShippingMethod } from '@svc/contract';
import type { RawBuilder, Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import type { LineItemRow } from './line-items.repository';
import type { OrderRow } from './orders.repository';

/** Why an order stopped holding what it took: it expired unpaid, was cancelled, or everything paid was refunded. */
export type ReleaseReason = 'expired' | 'cancelled' | 'refunded';

/** Units a refund returned, each with the line as it was when the refund succeeded. */
export interface RefundedUnits {
  lineItems: { lineItem: LineItemRow; quantity: number }[];
  /** The refund's `restock` (default true): put the units back where they came from. */
  restock: boolean;
}

/**
 * What the module that owns a non-ticket kind does when its order moves (products-api § 3.1). Ticketing owns the
 * order row, its line items, its checkout session, its payments' counting, its status and its
 * `{product}.order.*` events; the kind's module owns what the order holds (stock, grants, a subscription).
 *
 * Every hook runs inside the transaction that moved the order, after the order's status changed and while its
 * row is locked; a hook that throws rolls the whole move back (the payment confirmation, expiry, cancel or
 * refund is retried or refused as a whole). Hooks run once per move: the status change is a conditional update,
 * so of two racing moves only one reaches them. They receive the order row as it is after the move.
 */
export interface OrderKindHandler {
  kind: Exclude<OrderKind, 'ticket'>;
  /**
   * The order became `paid` (its last payment counted, or at creation when nothing is due, or a late payment
   * `lateTakeBack` accepted): turn reservations into sales, grant, activate. Called before `{product}.order.paid`
   * is recorded, so the event shows what this wrote.
   */
  paid(trx: Transaction<DB>, ctx: AppContext, scope: Scope, order: OrderRow): Promise<void>;
  /**
   * The order gave up what it held: `expired` and `cancelled` from `pending` (reservations back), `refunded`
   * once everything paid was returned (revoke grants, end the subscription). Units refunded are reported to
   * `refunded` first, so `released(…, 'refunded')` need not return stock.
   */
  released(trx: Transaction<DB>, ctx: AppContext, scope: Scope, order: OrderRow, reason: ReleaseReason): Promise<void>;
  /**
   * A refund succeeded that returned units of lines (named by the refund, or, when it leaves the order
   * `refunded`, every unit not refunded before). `quantity_refunded` is already counted on the lines. Not called
   * for a refund of an amount alone.
   */
  refunded?(trx: Transaction<DB>, ctx: AppContext, scope: Scope, order: OrderRow, units: RefundedUnits): Promise<void>;
  /**
   * A payment succeeded after the order `expired` and the late-payment policy accepts it: take back what the
   * order held if that is still possible (stock still free, subscription not ended). Answers `true` to go on and
   * pay the order, or the refund's reason (`out_of_stock`, `subscription_ended`) to refund the payment and leave
   * the order `expired`. Absent: a late payment is always accepted.
   */
  lateTakeBack?(trx: Transaction<DB>, ctx: AppContext, scope: Scope, order: OrderRow): Promise<true | string>;
  /**
   * Fields the kind adds to the order as shown (e.g. `shipping_method`, `fulfillment_status`), for a page of
   * its orders in one read. Answers them by order id; orders left out get nothing added.
   */
  serialize?(db: Executor, scope: Scope, orders: readonly OrderRow[]): Promise<Map<string, Partial<Order>>>;
  /**
   * The ids of the orders of the scope (this kind's, and ticket orders with add-ons) in a fulfilment status, as
   * a subquery (`GET /v1/orders?fulfillment_status=`), so the list's other filters and its pages apply as usual.
   */
  inFulfillmentStatus?(scope: Scope, status: FulfillmentStatus): RawBuilder<unknown>;
  /**
   * Guest orders (this kind's, and for `product` ticket orders with add-ons) just taken by the customer who signed
   * in with their buyer's verified email or phone, in the sign-in's transaction: pass them what the orders granted.
   */
  claimed?(trx: Transaction<DB>, scope: Scope, customerId: string, orders: readonly OrderRow[]): Promise<void>;
}

const handlers = new Map<OrderKind, OrderKindHandler>();

/**
 * Registers the module that owns a kind of order; a module calls it from its `setup`. Registering a kind twice
 * replaces the first (a test's stand-in).
 */
export function registerOrderKind(handler: OrderKindHandler): void {
  handlers.set(handler.kind, handler);
}

/** The handler of a non-ticket kind; an order of a kind no module registered cannot move (its module is off). */
export function orderKindHandler(kind: OrderKind): OrderKindHandler {
  const handler = handlers.get(kind);
  if (!handler) throw new Error(`no module handles orders of kind ${kind}`);
  return handler;
}

export const registeredOrderKind = (kind: OrderKind): OrderKindHandler | undefined => handlers.get(kind);

/** The product an order's events are named after: `events.order.*`, `commerce.order.*`, `fanbases.order.*`. */
export const orderEventProduct = { ticket: 'events', product: 'commerce', subscription: 'fanbases' } as const satisfies Record<OrderKind, string>;

export type OrderAction = 'created' | 'paid' | 'expired' | 'cancelled' | 'refunded';
export const orderEventType = <A extends OrderAction>(kind: OrderKind, action: A) => `${orderEventProduct[kind]}.order.${action}` as `${(typeof orderEventProduct)[OrderKind]}.order.${A}`;

/** A booking's add-ons as their module checked and priced them, before anything is held. */
export interface PlannedAddOns {
  /** The product lines, priced now (the order keeps these prices). */
  lines: readonly NewAddOnLine[];
  /** The organization's shipping fee for a delivery of physical add-ons, else 0. */
  amountShipping: number;
  /**
   * Holds what the lines take (stock) for the order `orderId`, inside the booking's transaction, before its
   * seats are held; a miss throws (`409 out_of_stock`) and the booking rolls back.
   */
  hold(trx: Transaction<DB>, orderId: string): Promise<void>;
}

/** A product line of a ticket order. */
export interface NewAddOnLine {
  description: string;
  quantity: number;
  unitAmount: number;
  product: { product: string; variant: string; sku: string | null; kind: string };
}

/** What a booking sends for its add-ons (products-api § 3.1: `add_ons`, with § 3.4's shipping). */
export interface AddOnsRequest {
  organizationId: string;
  currency: string;
  addOns: readonly { variant: string; quantity: number }[];
  shippingMethod?: ShippingMethod | null;
  shippingAddress?: ShippingAddressInput | null;
}

/**
 * The module selling products a booking may add (commerce). A ticket order with add-ons (`amount_add_ons` not
 * null) is also moved through the `product` kind's handler: `paid`, `released`, `refunded`, `lateTakeBack` and
 * `serialize` act on its product lines as on a product order's.
 */
export interface AddOnsHandler {
  plan(ctx: AppContext, scope: Scope, request: AddOnsRequest): Promise<PlannedAddOns>;
}

let addOnsHandler: AddOnsHandler | undefined;

export function registerAddOns(handler: AddOnsHandler): void {
  addOnsHandler = handler;
}

/** The add-ons handler, or `undefined` when no module sells products. */
export const registeredAddOns = (): AddOnsHandler | undefined => addOnsHandler;

/** The product kind's handler for a ticket order with add-ons; `undefined` for any other order. */
export const addOnsOf = (order: Pick<OrderRow, 'kind' | 'amount_add_ons'>): OrderKindHandler | undefined =>
  order.kind === 'ticket' && order.amount_add_ons !== null ? orderKindHandler('product') : undefined;
