import { Readable } from 'node:stream';
import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { actorOf } from '../../../core/principal';
import { readableOrganizations, requireCommercePermission } from '../commerce-access';
import { createProductOrder } from './create-product-order';
import { fulfillOrder } from './fulfillment.service';
import { productOrdersCsv } from './orders-export';

const s = initServer();

export const productOrdersRouter = (ctx: AppContext) =>
  s.router(contract.commerce.orders, {
    create: async ({ body, req }) => ({ status: 201, body: { data: await createProductOrder(ctx, actorOf(req), body) } }),
    fulfill: async ({ params, body, req }) => ({ status: 200, body: { data: await fulfillOrder(ctx, actorOf(req), params.id, body) } }),
    exportOrders: async ({ query, req, res }) => {
      if (query.format !== 'csv') throw ApiError.of('INVALID_FORMAT', { message: 'Only `csv` is offered.' });
      const caller = actorOf(req);
      if (query.organization) await requireCommercePermission(ctx, caller, query.organization, 'commerce:read');
      else if ((await readableOrganizations(ctx, caller)) !== null) {
        throw ApiError.of('validation_failed', { param: 'organization', message: 'Name the organization whose orders to export.', details: { organization: ['Required for members of organizations.'] } });
      }
      const stream = Readable.from(productOrdersCsv(ctx, caller.scope, { organization: query.organization, status: query.fulfillment_status }));
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', 'attachment; filename="product-orders.csv"');
      // Headers are gone by the time a read fails mid-way: the connection is cut so the client sees a broken file.
      stream.on('error', () => res.destroy());
      res.on('close', () => stream.destroy());
      return { status: 200, body: stream as unknown as string };
    },
  });
