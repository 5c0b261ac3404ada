import type { ModuleDefinition } from '../../core/modules/module-definition';
import { registerCapsuleMerch } from '../creators';
import { registerAddOns, registerOrderKind } from '../ticketing';
import { bookingAddOns } from './orders/booking-add-ons';
import { productOrderKind } from './orders/product-order-kind';
import { commerceRouter } from './commerce.router';
import { capsuleMerch } from './public/public-products.service';
import { recomputeReservedJob } from './stock/recompute-reserved.job';
import { setUpSoldOutVariants } from './stock/sold-out-variants';

/**
 * Commerce: an organization's products and variants with their stock, its commerce settings, the public product
 * reads and the capsule's merch. Product orders are ticketing's orders of kind `product`.
 */
export const commerceModule: ModuleDefinition = {
  name: 'commerce',
  setup: (ctx, listener) => {
    // Variants read sold out answer the refusals of a rush, forgotten on every process when room comes back.
    setUpSoldOutVariants(ctx, listener);
    registerCapsuleMerch(ctx, capsuleMerch);
    // Product orders are ticketing's orders of kind `product`: commerce holds, sells and gives back their stock.
    registerOrderKind(productOrderKind);
    // A booking's add-ons are product lines of the ticket order, held, sold and given back as a product order's.
    registerAddOns(bookingAddOns);
  },
  routers: (ctx) => ({ commerce: commerceRouter(ctx) }),
  jobs: (ctx) => [recomputeReservedJob(ctx)],
};

export { productOrganization } from './products/product-organization';
