import type { Order } from '@svc/contract';
import type { Transaction } from 'kysely';
import { linkBaseOf } from '../../../core/branding';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import { newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { jobOf, sendInTransaction } from '../../../jobs/send-in-transaction';
import { requireLivePayments } from '../../payments';
import { checkoutSessionRow, checkoutUrl } from '../booking/checkout-sessions';
import { newOrderCode } from '../tickets/ticket-secrets';
import { expireOrder } from './expire-orders.job';
import { markKindOrderPaid } from './kind-transitions';
import type { LineItemRow, NewLineItem } from './line-items.repository';
import { orderEventType, orderKindHandler } from './order-kinds';
import { attributeOrder } from './order-listeners';
import { insertOrderIfCodeFree, type OrderRow } from './orders.repository';
import { presentOrder } from './orders.serializer';

/** A line of a new product or subscription order; its kind is the order's. */
export interface NewOrderLine {
  /** Products: product and variant names; subscriptions: tier name and period. */
  description: string;
  quantity: number;
  unitAmount: number;
  /** Default 0; spread by the caller (products-api § 3.1: pro rata, remainders to the largest items). */
  amountDiscount?: number;
  product?: { product: string; variant: string; sku: string | null; kind: string };
  subscription?: { subscription: string; tier: string; period_start: string | null; period_end: string | null };
}

export interface CreateOrderInput {
  /** The order's `ord_` id when the caller wrote rows keyed by it first (commerce's row of a product order); default a new one. */
  id?: string;
  kind: 'product' | 'subscription';
  organizationId: string;
  currency: string;
  buyer?: { name: string | null; email: string | null; phone: string | null };
  /** The buyer's `cus_` when signed in (or found by the caller). */
  customerId?: string | null;
  lineItems: readonly NewOrderLine[];
  amountShipping?: number;
  /** When the unpaid order expires (the expiry job is queued with it); required when something is due. */
  expiresAt: Date | null;
  redirectUrl?: string | null;
  /** The `sub_` of a subscription order. */
  subscriptionId?: string | null;
  externalId?: string | null;
  metadata?: Record<string, string>;
  /** A promoter's code or referral token sent with the order (products-api § 4.3); ignored when it attributes nothing. */
  referral?: { ref?: string | null; referral?: string | null };
  /** What `prepareOrder` looked up before the caller's transaction. */
  prepared: PreparedOrder;
}

/** Looked up before an order's transaction opens: nothing inside it may wait for a second pool connection. */
export interface PreparedOrder {
  /** The base of the checkout page's address for this organization (its custom domain, else the service's). */
  checkoutBase: string;
}

/**
 * What `createOrder` needs from outside the database transaction, read before the caller opens it: a transaction
 * that waited on the pool for a lookup could wait for ever once every connection is held by such transactions (a
 * rush of orders on a cold cache). A live-mode order with something `due` needs a payment configuration serving
 * the organization (`409 payments_not_configured`, `503 payments_unavailable`), checked here, before anything is held.
 */
export async function prepareOrder(ctx: AppContext, scope: Scope, organizationId: string, due: boolean): Promise<PreparedOrder> {
  if (due) await requireLivePayments(ctx, scope, organizationId);
  return { checkoutBase: await linkBaseOf(ctx, scope, organizationId, 'checkout') };
}

export interface CreatedOrder {
  order: Order;
  row: OrderRow;
  lineItems: LineItemRow[];
  /** The checkout page while something is due, else `null` (a total of 0 is paid at once). */
  checkoutUrl: string | null;
}

const MAX_AMOUNT = 2_147_483_647;

/**
 * Creates a product or subscription order inside the caller's transaction (products-api § 3.1): the order, its
 * lines in one statement, its checkout session, its expiry job and `{product}.order.created`; a total of 0 is
 * paid at once (the kind's `paid` hook and `{product}.order.paid`, before this answers). The caller has taken
 * what the order holds (stock reserved, subscription made) in the same transaction. A live-mode order with
 * something due needs a payment configuration serving the organization (`409 payments_not_configured`,
 * `503 payments_unavailable`); a taken `external_id` is `409 external_id_taken`.
 */
export async function createOrder(trx: Transaction<DB>, ctx: AppContext, scope: Scope, input: CreateOrderInput): Promise<CreatedOrder> {
  orderKindHandler(input.kind);
  if (input.lineItems.length === 0) throw new Error('createOrder: an order needs a line item');
  const lines = input.lineItems.map((l) => {
    const subtotal = l.unitAmount * l.quantity;
    const discount = l.amountDiscount ?? 0;
    if (!Number.isInteger(subtotal) || l.quantity < 1 || l.unitAmount < 0 || discount < 0 || discount > subtotal) throw new Error('createOrder: a line item has bad amounts');
    return { ...l, subtotal, discount, total: subtotal - discount };
  });
  const shipping = input.amountShipping ?? 0;
  const discount = lines.reduce((sum, l) => sum + l.discount, 0);
  const total = lines.reduce((sum, l) => sum + l.total, 0) + shipping;
  if (total > MAX_AMOUNT) throw ApiError.of('validation_failed', { param: 'line_items', message: `The order's total may not exceed ${MAX_AMOUNT}.` });
  if (total > 0 && !input.expiresAt) throw new Error('createOrder: an order with something due needs expiresAt');

  const now = ctx.clock ? ctx.clock() : new Date();
  const attribution = input.referral
    ? await attributeOrder(trx, scope, {
        organizationId: input.organizationId,
        customerId: input.customerId ?? null,
        couponPromoterId: null,
        referral: input.referral.referral ?? null,
        ref: input.referral.ref ?? null,
        items: lines
          .filter(() => input.kind === 'product')
          .map((l) => ({ kind: 'product' as const, event_id: null, ticket_type_id: null, product_id: l.product?.product ?? null, quantity: l.quantity, amount_total: l.total, ends_at: now })),
        now,
      })
    : null;
  const id = input.id ?? newId('order');
  let row: OrderRow | undefined;
  try {
    for (let attempt = 0; !row; attempt++) {
      if (attempt > 5) throw new Error('createOrder: no free order code');
      row = await insertOrderIfCodeFree(trx, scope, {
        id,
        code: newOrderCode(),
        kind: input.kind,
        status: 'pending',
        organization_id: input.organizationId,
        event_id: null,
        ticket_type_id: null,
        slot_id: null,
        quantity: lines.reduce((sum, l) => sum + l.quantity, 0),
        seats: 0,
        bucket_ids: [],
        seats_state: 'released',
        coupon_id: null,
        coupon_state: null,
        amount_total: total,
        amount_discount: discount,
        amount_shipping: shipping,
        currency: input.currency,
        buyer_name: input.buyer?.name ?? null,
        buyer_email: input.buyer?.email?.toLowerCase() ?? null,
        buyer_phone: input.buyer?.phone ?? null,
        customer_id: input.customerId ?? null,
        redirect_url: input.redirectUrl ?? null,
        subscription_id: input.subscriptionId ?? null,
        external_id: input.externalId ?? null,
        metadata: JSON.stringify(input.metadata ?? {}),
        attribution: attribution ? JSON.stringify(attribution) : null,
        expires_at: total > 0 ? input.expiresAt : null,
      });
    }
  } catch (err) {
    if (isUniqueViolation(err, 'orders_external_id')) throw ApiError.of('external_id_taken', { param: 'external_id' });
    throw err;
  }
  const lineRows: NewLineItem[] = lines.map((l, position) => ({
    id: newId('line_item'),
    tenant_id: scope.tenantId,
    livemode: scope.livemode,
    order_id: id,
    position,
    kind: input.kind,
    description: l.description,
    quantity: l.quantity,
    unit_amount: l.unitAmount,
    amount_subtotal: l.subtotal,
    amount_discount: l.discount,
    amount_total: l.total,
    currency: input.currency,
    product: l.product ? JSON.stringify(l.product) : null,
    subscription: l.subscription ? JSON.stringify(l.subscription) : null,
  }));
  const session = total > 0 ? checkoutSessionRow(scope, { orderId: id, amount: total, currency: input.currency, redirectUrl: input.redirectUrl ?? null, expiresAt: input.expiresAt! }) : null;
  // The lines and the checkout session in one statement.
  const inserted = session
    ? await trx.with('new_checkout_session', (q) => q.insertInto('checkout_sessions').values(session).returning('id')).insertInto('line_items').values(lineRows).returningAll().execute()
    : await trx.insertInto('line_items').values(lineRows).returningAll().execute();
  inserted.sort((a, b) => a.position - b.position);
  if (session) await sendInTransaction(trx, [jobOf(expireOrder, { tenant_id: scope.tenantId, livemode: scope.livemode, order_id: id }, input.expiresAt!)]);
  const url = session ? checkoutUrl(input.prepared.checkoutBase, session.id) : null;
  // The links as prepared: a whitelabel lookup here would take a second connection inside the transaction.
  const created = await presentOrder(trx, scope, row, { config: { baseUrl: input.prepared.checkoutBase } });
  await emitEvent(trx, scope, { type: orderEventType(input.kind, 'created'), subject: id, object: created });
  if (total > 0) return { order: created, row, lineItems: inserted, checkoutUrl: url };
  const paid = await markKindOrderPaid(trx, ctx, scope, row);
  if (paid.outcome !== 'paid') throw new Error('createOrder: a free order could not be paid');
  return { order: paid.order, row: paid.row, lineItems: inserted, checkoutUrl: null };
}
