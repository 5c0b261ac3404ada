import type { Transaction } from 'kysely';
import { emitPreparedEvents } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import type { ProductGrantColumn } from '../../../db/commerce.schema';
import { grantEntitlementsInTransaction, passEntitlementsBySource, revokeEntitlementsBySource, revokeEntitlementsBySourceFor, type TransactionalGrant } from '../../access';
import { findOrCreateCustomerByEmail } from '../../identity';
import { lineItemsOfOrders, type LineItemRow, type OrderRow } from '../../ticketing';
import { productsAndVariants } from '../products/products.service';

const DAY_MS = 86_400_000;

/** The digital products of an order's lines, by product id. */
async function digitalProductsOf(trx: Transaction<DB>, scope: Scope, lines: readonly LineItemRow[]) {
  const variantIds = lines.flatMap((l) => ((l.product as { variant?: string } | null)?.variant ? [(l.product as { variant: string }).variant] : []));
  const { products } = await productsAndVariants(trx, scope, variantIds);
  return new Map([...products].filter(([, p]) => p.kind === 'digital'));
}

const productIdOf = (l: LineItemRow) => (l.product as { product?: string } | null)?.product ?? null;

/**
 * A paid order's digital items grant their resources (products-api § 3.5): `source: payment`, `source_ref` the
 * order code, to the buyer's customer (signed in, else found or created by the buyer's email), from `paid_at`
 * for `grant_duration_days`, with the product's `grant_limits`. Lines refunded in full grant nothing. A buyer
 * known only by phone has no customer to hold a grant: their digital items grant when they sign in with that
 * phone (`passDigitalItems`).
 */
export async function grantDigitalItems(trx: Transaction<DB>, scope: Scope, order: OrderRow, now: Date) {
  const lines = ((await lineItemsOfOrders(trx, scope, [order.id])).get(order.id) ?? []).filter((l) => l.quantity_refunded < l.quantity);
  const digital = await digitalProductsOf(trx, scope, lines);
  if (digital.size === 0) return;
  const customer = order.customer_id ?? (order.buyer_email ? (await findOrCreateCustomerByEmail(trx, scope, order.buyer_email, order.buyer_name)).id : null);
  if (!customer) return;
  const paidAt = order.paid_at ?? now;
  const grants: TransactionalGrant[] = [...digital.values()].flatMap((p) =>
    p.grants.map((g: ProductGrantColumn) => ({
      customer,
      resource: { type: g.type, id: g.id },
      source: 'payment' as const,
      source_ref: order.code,
      ends_at: p.grant_duration_days ? new Date(paidAt.getTime() + p.grant_duration_days * DAY_MS) : null,
      limits: p.grant_limits,
    })),
  );
  const { events } = await grantEntitlementsInTransaction(trx, scope, grants, now);
  await emitPreparedEvents(trx, events);
}

/**
 * Guest orders taken by the customer who signed in with their buyer's verified email or phone: the entitlements
 * their digital items granted (to the customer found by the buyer's email) pass to that customer, and a paid
 * order bought with a phone alone, which could grant nothing, grants now. All in the sign-in's transaction and
 * the orders' tenant and environment.
 */
export async function passDigitalItems(trx: Transaction<DB>, scope: Scope, customerId: string, orders: readonly OrderRow[], now: Date) {
  const paid = orders.filter((o) => o.status === 'paid' || o.status === 'partially_refunded');
  if (paid.length === 0) return;
  await passEntitlementsBySource(trx, scope, 'payment', paid.map((o) => o.code), customerId, now);
  for (const order of paid.filter((o) => !o.buyer_email)) await grantDigitalItems(trx, scope, { ...order, customer_id: customerId }, now);
}

/** Everything the order granted is taken back (it was refunded in full). */
export async function revokeOrderGrants(trx: Transaction<DB>, scope: Scope, order: OrderRow, now: Date) {
  await revokeEntitlementsBySource(trx, scope, 'payment', order.code, now);
}

/**
 * Refunded digital items lose their grants: the resources of lines refunded in full, except those another line
 * of the order, not refunded in full, still grants.
 */
export async function revokeDigitalItems(trx: Transaction<DB>, scope: Scope, order: OrderRow, refunded: readonly LineItemRow[], now: Date) {
  const lines = (await lineItemsOfOrders(trx, scope, [order.id])).get(order.id) ?? [];
  const digital = await digitalProductsOf(trx, scope, lines);
  if (digital.size === 0) return;
  const refundedIds = new Set(refunded.map((l) => l.id));
  const key = (g: ProductGrantColumn) => `${g.type}:${g.id}`;
  const gone = new Map<string, ProductGrantColumn>();
  const kept = new Set<string>();
  for (const line of lines) {
    const product = digital.get(productIdOf(line) ?? '');
    if (!product) continue;
    const full = line.quantity_refunded >= line.quantity;
    for (const g of product.grants) {
      if (full && refundedIds.has(line.id)) gone.set(key(g), g);
      else if (!full) kept.add(key(g));
    }
  }
  const resources = [...gone.entries()].filter(([k]) => !kept.has(k)).map(([, g]) => g);
  await revokeEntitlementsBySourceFor(trx, scope, 'payment', order.code, resources, now);
}
