export type FulfilmentStatus = 'unfulfilled' | 'fulfilled' | 'shipped' | 'delivered' | 'returned';
export type FulfilmentMove = Exclude<FulfilmentStatus, 'unfulfilled'>;

/** What the fulfilment moves read of a product order. */
export interface FulfillableOrder {
  status: string;
  shipping_method: 'delivery' | 'pickup' | null;
  fulfillment_status: FulfilmentStatus | null;
}

export const MOVE_LABELS: Record<FulfilmentMove, string> = {
  fulfilled: 'Mark fulfilled',
  shipped: 'Mark shipped',
  delivered: 'Mark delivered',
  returned: 'Mark returned',
};

/**
 * The fulfilment moves the API allows from where an order is (products design § 3.4): only paid and partially
 * refunded orders move, forward only; shipping is for delivery orders, and a pickup order is delivered once fulfilled.
 */
export function fulfilmentMoves(order: FulfillableOrder): FulfilmentMove[] {
  if (order.status !== 'paid' && order.status !== 'partially_refunded') return [];
  const delivery = order.shipping_method === 'delivery';
  switch (order.fulfillment_status) {
    case 'unfulfilled':
      return delivery ? ['fulfilled', 'shipped'] : ['fulfilled'];
    case 'fulfilled':
      return delivery ? ['shipped'] : order.shipping_method === 'pickup' ? ['delivered'] : [];
    case 'shipped':
      return ['delivered', 'returned'];
    case 'delivered':
      return ['returned'];
    default:
      return [];
  }
}

/** The fulfilment body for a move: a carrier and tracking number go with `shipped` only, blanks left out. */
export function fulfilmentBody(move: FulfilmentMove, form: { carrier?: string; tracking_number?: string; note?: string }) {
  const trim = (s: string | undefined) => (s && s.trim() ? s.trim() : undefined);
  return {
    status: move,
    ...(move === 'shipped' && trim(form.carrier) ? { carrier: trim(form.carrier) } : {}),
    ...(move === 'shipped' && trim(form.tracking_number) ? { tracking_number: trim(form.tracking_number) } : {}),
    ...(trim(form.note) ? { note: trim(form.note) } : {}),
  };
}

/** Product orders among those read, with this fulfilment status when one is chosen. */
export function productOrders<T extends { kind: string; fulfillment_status: string | null }>(orders: readonly T[], fulfilment?: string): T[] {
  return orders.filter((o) => o.kind === 'product' && (!fulfilment || o.fulfillment_status === fulfilment));
}
