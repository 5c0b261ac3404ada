import type { CreateProductOrderInput, Order } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import type { TenantPrincipal } from '../../../core/principal';
import type { DB } from '../../../db/schema';
import { findCustomer } from '../../identity';
import { createOrder, prepareOrder } from '../../ticketing';
import { nowOf } from '../commerce-access';
import { invalid } from '../products/product-rules';
import { variantsWithProducts } from '../products/products.service';
import { commerceSettingsOf } from '../settings/commerce-settings.service';
import { soldOutVariantsOf } from '../stock/sold-out-variants';
import { outOfStock, perVariant, reserveStock } from '../stock/stock.service';
import { planOrderLines, type OrderPlan } from './order-lines';
import { insertProductOrder } from './product-orders.repository';
import { shippingOf } from './shipping';
import { ALONE, orderTogether } from './take-orders-together';

/** Who buys: the body's buyer, with a signed-in person's customer record filling what it leaves out. */
async function buyerOf(ctx: AppContext, caller: TenantPrincipal, input: CreateProductOrderInput) {
  const customerId = caller.kind === 'user' ? caller.customerId : caller.kind === 'customer' && isIdOf('customer', caller.customer) ? caller.customer : null;
  const customer = customerId ? await findCustomer(ctx.db, caller.scope, customerId) : undefined;
  const buyer = {
    name: input.buyer?.name ?? customer?.name ?? null,
    email: input.buyer?.email?.toLowerCase() ?? customer?.email ?? null,
    phone: input.buyer?.phone ?? customer?.phone ?? null,
  };
  if (!customer && !buyer.email && !buyer.phone) throw invalid('buyer', 'Give the buyer\'s `email` or `phone`, or sign in.');
  return { buyer, customerId: customer?.id ?? null };
}

const description = (l: OrderPlan['lines'][number]) => `${l.product.name} — ${l.variant.name}`;

/**
 * `POST /v1/orders` (products-api § 3.3). In one transaction: commerce's row of the order, the order itself with
 * its lines, checkout session, expiry and `commerce.order.created`, then the stock reserved (variants locked in id
 * order; one miss is `409 out_of_stock` and nothing is kept). Prices are the variants' at this moment and stay on
 * the lines. A total of 0 is paid at once, inside `createOrder`, which sells what is reserved: its stock is
 * reserved first. Orders arriving together share one transaction per tenant and mode (`orderTogether`), with
 * the same answers.
 */
export async function createProductOrder(ctx: AppContext, caller: TenantPrincipal, input: CreateProductOrderInput): Promise<Order> {
  const scope = caller.scope;
  if ((input.external_id !== undefined || input.metadata !== undefined) && caller.kind !== 'secret' && caller.kind !== 'restricted') {
    throw invalid(input.external_id !== undefined ? 'external_id' : 'metadata', 'Only a secret or restricted key may set this.');
  }
  // Once the last units are held, the variants as last read sold out answer the rush's refusals (see SoldOutVariants).
  const read = (ids: readonly string[]) => soldOutVariantsOf(ctx).read(scope, ids, (all) => variantsWithProducts(ctx.db, scope, all));
  const plan = await planOrderLines(ctx.db, scope, input.line_items, { read });
  // Already short when read: refused before any lock is waited for (the reservation below decides the rest).
  const short = plan.lines.filter((l) => l.variant.stock !== null && l.variant.stock - l.variant.reserved < l.quantity);
  if (short.length > 0) throw outOfStock(short.map((l) => l.variant.id).sort());
  const settings = await commerceSettingsOf(ctx.db, scope, plan.organizationId);
  const shipping = shippingOf(plan, settings, input);
  const { buyer, customerId } = await buyerOf(ctx, caller, input);
  const due = shipping.fee > 0 || plan.lines.some((l) => l.variant.price * l.quantity > 0);
  const prepared = await prepareOrder(ctx, scope, plan.organizationId, due);
  const now = nowOf(ctx);
  const orderId = newId('order');
  const stockLines = perVariant(plan.lines.map((l) => ({ variant: l.variant.id, quantity: l.quantity })));
  const create = async (trx: Transaction<DB>) => {
    await insertProductOrder(trx, {
      order_id: orderId,
      tenant_id: scope.tenantId,
      livemode: scope.livemode,
      organization_id: plan.organizationId,
      lines: JSON.stringify(stockLines),
      shipping_method: shipping.method,
      shipping_address: JSON.stringify(shipping.address),
      created_at: now,
      updated_at: now,
    });
    const created = await createOrder(trx, ctx, scope, {
      id: orderId,
      kind: 'product',
      organizationId: plan.organizationId,
      currency: plan.currency,
      buyer,
      customerId,
      lineItems: plan.lines.map((l) => ({
        description: description(l),
        quantity: l.quantity,
        unitAmount: l.variant.price,
        product: { product: l.product.id, variant: l.variant.id, sku: l.variant.sku, kind: l.product.kind },
      })),
      amountShipping: shipping.fee,
      expiresAt: new Date(now.getTime() + settings.hold_minutes * 60_000),
      redirectUrl: input.redirect_url ?? null,
      externalId: input.external_id ?? null,
      metadata: input.metadata,
      // A promoter's code or referral token; one that attributes nothing is ignored (the sale goes on).
      referral: input.referral || input.ref ? { referral: input.referral ?? null, ref: input.ref ?? null } : undefined,
      prepared,
    });
    return created.order;
  };
  // Orders with something due go with the others arriving meanwhile (see take-orders-together); a total of 0,
  // paid inside `createOrder`, holds its stock before it and is taken alone.
  if (due) {
    const together = await orderTogether(ctx, { scope, lines: stockLines, create });
    if (together !== ALONE) return together;
  }
  return ctx.db.transaction().execute(async (trx) => {
    if (!due) await reserveStock(trx, scope, stockLines);
    const order = await create(trx);
    // Every buyer of a variant waits for its row: taken last, it is held only from here to the commit (taken
    // first, it would be held through every write above, and a rush of buyers would queue behind them).
    if (due) await reserveStock(trx, scope, stockLines);
    return order;
  });
}
