import { ProductSchema } from '../commerce/products.schemas';
import { defineEvents } from './define-events';

export const commerceEvents = defineEvents({
  'commerce.product.created': { payload: ProductSchema, description: 'A product was created.' },
  'commerce.product.updated': { payload: ProductSchema, description: 'A product or one of its variants changed (not its status to `published` or `archived`).' },
  'commerce.product.published': { payload: ProductSchema, description: 'A product became `published`: the public can read and buy it.' },
  'commerce.product.archived': { payload: ProductSchema, description: 'A product became `archived`: it can no longer be bought.' },
});
