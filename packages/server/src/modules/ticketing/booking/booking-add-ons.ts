import type { BookingStoreRequest } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { newId } from '../../../core/ids';
import type { TenantPrincipal } from '../../../core/principal';
import type { DB } from '../../../db/schema';
import { registeredAddOns, type PlannedAddOns } from '../orders/order-kinds';
import { insertLineItems, type NewLineItem, type OrderRow } from '../orders/order-rows.service';
import type { ReadTarget } from './sold-out-memo';

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });

/**
 * A booking's `add_ons` (products-api § 3.1), checked and priced by the module that sells products, or `null`
 * when the booking adds none. They need the `commerce` product; shipping belongs to them alone.
 */
export async function planBookingAddOns(ctx: AppContext, principal: TenantPrincipal, t: ReadTarget, body: BookingStoreRequest): Promise<PlannedAddOns | null> {
  if (!body.add_ons?.length) {
    if (body.shipping_method || body.shipping_address) throw invalid(body.shipping_method ? 'shipping_method' : 'shipping_address', 'Only add-ons are shipped.');
    return null;
  }
  const handler = registeredAddOns();
  if (!handler || !principal.tenant.products.includes('commerce')) {
    throw ApiError.of('product_not_enabled', { param: 'add_ons', message: 'The commerce product is not enabled for this tenant.' });
  }
  return handler.plan(ctx, principal.scope, {
    organizationId: t.event.organization_id,
    currency: t.event.currency,
    addOns: body.add_ons,
    shippingMethod: body.shipping_method,
    shippingAddress: body.shipping_address,
  });
}

export const addOnsAmountOf = (addOns: PlannedAddOns) => addOns.lines.reduce((sum, l) => sum + l.unitAmount * l.quantity, 0) + addOns.amountShipping;

/** The add-ons' product lines of the order, after its ticket line. */
export async function insertAddOnLines(trx: Transaction<DB>, order: OrderRow, addOns: PlannedAddOns): Promise<void> {
  const rows: NewLineItem[] = addOns.lines.map((l, i) => ({
    id: newId('line_item'),
    tenant_id: order.tenant_id,
    livemode: order.livemode,
    order_id: order.id,
    position: i + 1,
    kind: 'product',
    description: l.description,
    quantity: l.quantity,
    unit_amount: l.unitAmount,
    amount_subtotal: l.unitAmount * l.quantity,
    amount_discount: 0,
    amount_total: l.unitAmount * l.quantity,
    currency: order.currency,
    product: JSON.stringify(l.product),
  }));
  await insertLineItems(trx, rows);
}
