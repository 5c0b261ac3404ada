import type { AddOnsHandler } from '../../ticketing';
import { nowOf } from '../commerce-access';
import { commerceSettingsOf } from '../settings/commerce-settings.service';
import { outOfStock, perVariant, reserveStock } from '../stock/stock.service';
import { planOrderLines } from './order-lines';
import { insertProductOrder } from './product-orders.repository';
import { shippingOf } from './shipping';

/**
 * Products added to a booking (products-api § 3.1): checked as a product order's lines (`param: add_ons.N.variant`),
 * of the event's organization and currency, priced now, with § 3.4's shipping. Held in the booking's transaction
 * under § 3.3's stock rule, with commerce's row of the order, so the ticket order's add-ons are paid, released,
 * refunded and fulfilled as a product order's lines are.
 */
export const bookingAddOns: AddOnsHandler = {
  async plan(ctx, scope, request) {
    const plan = await planOrderLines(ctx.db, scope, request.addOns, { param: 'add_ons', organizationId: request.organizationId, currency: request.currency });
    // Already short when read: refused before the booking waits for any lock.
    const short = plan.lines.filter((l) => l.variant.stock !== null && l.variant.stock - l.variant.reserved < l.quantity);
    if (short.length > 0) throw outOfStock(short.map((l) => l.variant.id).sort(), 'add_ons');
    const settings = await commerceSettingsOf(ctx.db, scope, request.organizationId);
    const shipping = shippingOf(plan, settings, { shipping_method: request.shippingMethod, shipping_address: request.shippingAddress });
    const stockLines = perVariant(plan.lines.map((l) => ({ variant: l.variant.id, quantity: l.quantity })));
    return {
      lines: plan.lines.map((l) => ({
        description: `${l.product.name} — ${l.variant.name}`,
        quantity: l.quantity,
        unitAmount: l.variant.price,
        product: { product: l.product.id, variant: l.variant.id, sku: l.variant.sku, kind: l.product.kind },
      })),
      amountShipping: shipping.fee,
      async hold(trx, orderId) {
        await reserveStock(trx, scope, stockLines, 'add_ons');
        const now = nowOf(ctx);
        await insertProductOrder(trx, {
          order_id: orderId,
          tenant_id: scope.tenantId,
          livemode: scope.livemode,
          organization_id: request.organizationId,
          lines: JSON.stringify(stockLines),
          shipping_method: shipping.method,
          shipping_address: JSON.stringify(shipping.address),
          created_at: now,
          updated_at: now,
        });
      },
    };
  },
};
