import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { readableOrganizations, requireCommercePermission, type CommercePermission } from '../commerce-access';
import * as products from './products.service';
import * as variants from './variants.service';

const s = initServer();

export const productsRouter = (ctx: AppContext) => {
  /** The product, once the caller may act on it (a member needs the permission in its organization). */
  const guarded = async (req: Parameters<typeof actorOf>[0], id: string, permission: CommercePermission) => {
    const caller = actorOf(req);
    const product = await products.getProduct(ctx, caller.scope, id);
    await requireCommercePermission(ctx, caller, product.organization, permission);
    return { caller, product };
  };
  return s.router(contract.commerce.products, {
    create: async ({ body, req }) => {
      const caller = actorOf(req);
      await requireCommercePermission(ctx, caller, body.organization, 'commerce:write');
      return { status: 201, body: { data: await products.createProduct(ctx, caller.scope, body) } };
    },
    list: async ({ query: { organization, status, kind, metadata, ...page }, req }) => {
      const caller = actorOf(req);
      const organizations = await readableOrganizations(ctx, caller);
      return { status: 200, body: await products.listProducts(ctx, caller.scope, { organization, organizations, status, kind, metadata }, page) };
    },
    retrieve: async ({ params, req }) => ({ status: 200, body: { data: (await guarded(req, params.id, 'commerce:read')).product } }),
    retrieveByExternalId: async ({ params, req }) => {
      const caller = actorOf(req);
      const product = await products.getProductByExternalId(ctx, caller.scope, params.external_id);
      await requireCommercePermission(ctx, caller, product.organization, 'commerce:read');
      return { status: 200, body: { data: product } };
    },
    update: async ({ params, body, req }) => {
      const { caller } = await guarded(req, params.id, 'commerce:write');
      return { status: 200, body: { data: await products.updateProduct(ctx, caller.scope, params.id, body) } };
    },
    createVariant: async ({ params, body, req }) => {
      const { caller } = await guarded(req, params.id, 'commerce:write');
      return { status: 201, body: { data: await variants.createVariant(ctx, caller.scope, params.id, body) } };
    },
    updateVariant: async ({ params, body, req }) => {
      const caller = actorOf(req);
      const variant = await variants.getVariantRow(ctx, caller.scope, params.id);
      const { product } = await guarded(req, variant.product_id, 'commerce:write');
      void product;
      return { status: 200, body: { data: await variants.updateVariant(ctx, caller.scope, params.id, body) } };
    },
  });
};
