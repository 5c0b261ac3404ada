import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../core/context';
import { productsRouter } from './products/products.router';
import { publicProductsRouter } from './public/public-products.router';
import { commerceSettingsRouter } from './settings/commerce-settings.router';
import { productOrdersRouter } from './orders/orders.router';

const s = initServer();

export const commerceRouter = (ctx: AppContext) =>
  s.router(contract.commerce, { products: productsRouter(ctx), settings: commerceSettingsRouter(ctx), public: publicProductsRouter(ctx), orders: productOrdersRouter(ctx) });
