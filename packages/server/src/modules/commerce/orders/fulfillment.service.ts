import type { FulfillOrderInput, Order } from '@svc/contract';
import type { Updateable } from 'kysely';
import { brandOf } from '../../../core/branding';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import type { TenantPrincipal } from '../../../core/principal';
import type { ProductOrdersTable } from '../../../db/commerce.schema';
import { writeMessage } from '../../messaging';
import { findOrder, presentOrder } from '../../ticketing';
import { nowOf, requireCommercePermission } from '../commerce-access';
import { commerceSettingsOf } from '../settings/commerce-settings.service';
import { fulfillmentMessage } from './fulfillment-messages';
import { canMove, FULFILLABLE_ORDER_STATUSES, type FulfillmentTarget } from './fulfillment-moves';
import { findProductOrder, updateProductOrder } from './product-orders.repository';

const AT: Record<FulfillmentTarget, 'fulfilled_at' | 'shipped_at' | 'delivered_at' | 'returned_at'> = {
  fulfilled: 'fulfilled_at',
  shipped: 'shipped_at',
  delivered: 'delivered_at',
  returned: 'returned_at',
};

/**
 * `POST /v1/orders/{id}/fulfillment` (products-api § 3.4): under the order's row lock, one forward move of a paid
 * product order, its `commerce.order.{status}` event and, unless `notify: false`, the buyer's message, together.
 */
export async function fulfillOrder(ctx: AppContext, caller: TenantPrincipal, id: string, input: FulfillOrderInput): Promise<Order> {
  const scope = caller.scope;
  const now = nowOf(ctx);
  return ctx.db.transaction().execute(async (trx) => {
    const order = await findOrder(trx, scope, id, { forUpdate: true });
    // A product order, or a ticket order with add-ons: commerce's row says how its products travel.
    const own = order && (order.kind === 'product' || order.amount_add_ons !== null) ? await findProductOrder(trx, scope, order.id, { forUpdate: true }) : undefined;
    if (!order || !own) throw ApiError.notFound('product order', id);
    await requireCommercePermission(ctx, caller, order.organization_id, 'commerce:write');
    const from = own.fulfillment_status;
    const invalid = (why: string) =>
      ApiError.of('invalid_state_transition', { message: why, details: { status: order.status, fulfillment_status: from, to: input.status } });
    if (!(FULFILLABLE_ORDER_STATUSES as readonly string[]).includes(order.status)) throw invalid(`A ${order.status} order is not fulfilled.`);
    if (!canMove(from, input.status, own.shipping_method)) throw invalid(`A ${from} order cannot become ${input.status}.`);
    const changes: Updateable<ProductOrdersTable> = {
      fulfillment_status: input.status,
      [AT[input.status]]: now,
      ...(input.carrier !== undefined && { carrier: input.carrier }),
      ...(input.tracking_number !== undefined && { tracking_number: input.tracking_number }),
      ...(input.tracking_url !== undefined && { tracking_url: input.tracking_url }),
      ...(input.note !== undefined && { note: input.note }),
      updated_at: now,
    };
    const updated = await updateProductOrder(trx, scope, order.id, changes);
    const shown = await presentOrder(trx, scope, order);
    await emitEvent(trx, scope, { type: `commerce.order.${input.status}`, subject: order.id, object: shown, previousAttributes: { fulfillment_status: from } });
    if (input.notify !== false) {
      const settings = updated.shipping_method === 'pickup' ? await commerceSettingsOf(trx, scope, order.organization_id) : undefined;
      const message = fulfillmentMessage(
        {
          orderId: order.id,
          code: order.code,
          buyerEmail: order.buyer_email,
          buyerPhone: order.buyer_phone,
          status: input.status,
          pickup: updated.shipping_method === 'pickup',
          pickupInstructions: settings?.pickup_instructions ?? null,
          carrier: updated.carrier,
          trackingNumber: updated.tracking_number,
          trackingUrl: updated.tracking_url,
          note: input.note ?? null,
        },
        await brandOf(ctx, scope, order.organization_id),
      );
      if (message) await writeMessage(trx, scope, message);
    }
    return shown;
  });
}
