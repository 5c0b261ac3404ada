import type { FulfillmentStatus, ShippingMethod } from '@svc/contract';

export type FulfillmentTarget = Exclude<FulfillmentStatus, 'unfulfilled'>;

/**
 * The moves of products-api § 3.4, by target: where an order may come from (pickup orders are `delivered` from
 * `fulfilled`; only delivery orders are `shipped`). Anything else, backward moves included, is refused.
 */
export function canMove(from: FulfillmentStatus, to: FulfillmentTarget, method: ShippingMethod | null): boolean {
  switch (to) {
    case 'fulfilled':
      return from === 'unfulfilled';
    case 'shipped':
      return method === 'delivery' && (from === 'unfulfilled' || from === 'fulfilled');
    case 'delivered':
      return from === 'shipped' || (from === 'fulfilled' && method !== 'delivery');
    case 'returned':
      return from === 'shipped' || from === 'delivered';
  }
}

/** The order statuses whose fulfilment may move. */
export const FULFILLABLE_ORDER_STATUSES = ['paid', 'partially_refunded'] as const;
