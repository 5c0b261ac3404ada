import { OrderSchema } from '../ticketing/orders.schemas';
import { defineEvents } from './define-events';

// Orders of the other kinds (products-api § 3.1): `{product}.order.*` with `commerce` for product orders and
// `fanbases` for subscription orders; ticket orders keep `events.order.*`. `data.object` is the order.
export const orderKindEvents = defineEvents({
  'commerce.order.created': { payload: OrderSchema, description: 'A product order was created (pending, or paid at once when nothing is due).' },
  'commerce.order.paid': { payload: OrderSchema, description: 'A product order was paid: its reserved stock is sold and its digital items granted.' },
  'commerce.order.expired': { payload: OrderSchema, description: 'A pending product order was not paid by `expires_at`; its stock reservation was released.' },
  'commerce.order.cancelled': { payload: OrderSchema, description: 'A pending product order was cancelled; its stock reservation was released.' },
  'commerce.order.refunded': { payload: OrderSchema, description: 'Everything paid for a product order was returned.' },
  'fanbases.order.created': { payload: OrderSchema, description: 'A subscription order was created by subscribing or renewal.' },
  'fanbases.order.paid': { payload: OrderSchema, description: 'A subscription order was paid: its subscription is activated or renewed.' },
  'fanbases.order.expired': { payload: OrderSchema, description: 'A pending subscription order was not paid by `expires_at`.' },
  'fanbases.order.cancelled': { payload: OrderSchema, description: 'A pending subscription order was cancelled.' },
  'fanbases.order.refunded': { payload: OrderSchema, description: 'Everything paid for a subscription order was returned.' },
});
