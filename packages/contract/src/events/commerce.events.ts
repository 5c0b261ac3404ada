import { ProductSchema } from '../commerce/products.schemas';
import { OrderSchema } from '../ticketing/orders.schemas';
import { defineEvents } from './define-events';

export const commerceEvents = defineEvents({
  'commerce.product.created': { payload: ProductSchema, description: 'A product was created.' },
  'commerce.product.updated': { payload: ProductSchema, description: 'A product or one of its variants changed (not its status to `published` or `archived`).' },
  'commerce.product.published': { payload: ProductSchema, description: 'A product became `published`: the public can read and buy it.' },
  'commerce.product.archived': { payload: ProductSchema, description: 'A product became `archived`: it can no longer be bought.' },
  'commerce.order.fulfilled': { payload: OrderSchema, description: 'A product order was packed, or is ready for pickup (a digital-only order is fulfilled when paid, without this event).' },
  'commerce.order.shipped': { payload: OrderSchema, description: 'A product order left with a carrier; `fulfillment` holds the carrier and tracking.' },
  'commerce.order.delivered': { payload: OrderSchema, description: 'A product order reached the buyer, or was picked up.' },
  'commerce.order.returned': { payload: OrderSchema, description: 'A shipped or delivered product order came back; this refunds nothing by itself.' },
});
