import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import * as publicProducts from './public-products.service';

const s = initServer();

export const publicProductsRouter = (ctx: AppContext) =>
  s.router(contract.commerce.public, {
    list: async ({ query: { organization, ref: _ref, ...page }, req }) => ({
      status: 200,
      body: await publicProducts.listPublicProducts(ctx, actorOf(req).scope, organization, page),
    }),
    retrieve: async ({ params, req }) => ({ status: 200, body: { data: await publicProducts.getPublicProduct(ctx, actorOf(req).scope, params.id) } }),
  });
