import { randomUUID } from 'node:crypto';
import { newId } from '../../src/core/ids';
import { createOrder, prepareOrder, registerOrderKind, type CreateOrderInput, type OrderKindHandler, type OrderRow } from '../../src/modules/ticketing';
import type { TestServer } from '../harness';
import type { Tenant } from '../ticketing/booking-fixtures';

/** What a test kind's module was told, in order: `[hook, order id, detail]`. */
export type HookCall = [string, string, unknown];

/**
 * Stand-ins for the commerce and fanbases modules: each hook is recorded; `refuseLate` makes `lateTakeBack`
 * answer that reason for the orders named; `failPaid` makes `paid` throw for them. Call it after `useTestServer`.
 */
export function testKinds() {
  const calls: HookCall[] = [];
  const refuseLate = new Map<string, string>();
  const failPaid = new Set<string>();
  const handler = (kind: 'product' | 'subscription'): OrderKindHandler => ({
    kind,
    paid: async (_trx, _ctx, _scope, order) => {
      if (failPaid.has(order.id)) throw new Error('the kind refused');
      calls.push(['paid', order.id, order.status]);
    },
    released: async (_trx, _ctx, _scope, order, reason) => {
      calls.push(['released', order.id, reason]);
    },
    refunded: async (_trx, _ctx, _scope, order, units) => {
      calls.push(['refunded', order.id, { lines: units.lineItems.map((l) => [l.lineItem.id, l.quantity]), restock: units.restock }]);
    },
    lateTakeBack: async (_trx, _ctx, _scope, order) => {
      calls.push(['lateTakeBack', order.id, order.status]);
      return refuseLate.get(order.id) ?? true;
    },
    serialize: async (_db, _scope, orders: readonly OrderRow[]) => new Map(orders.map((o) => [o.id, { metadata: { ...o.metadata, seen_by: kind } }])),
  });
  const register = () => {
    registerOrderKind(handler('product'));
    registerOrderKind(handler('subscription'));
  };
  // Setting a test server up registers the real modules' handlers (commerce's, fanbases'): a file calls
  // `register` again once its server is made (`beforeAll(kinds.register)` after `useTestServer`).
  register();
  return { calls, refuseLate, failPaid, register, of: (orderId: string) => calls.filter((c) => c[1] === orderId).map(([hook, , detail]) => [hook, detail]) };
}

export async function seedOrganization(t: TestServer, tenant: Tenant, livemode = false) {
  const org = await t.ctx.db
    .insertInto('organizations')
    .values({
      tenant_id: tenant.tenant.id,
      livemode,
      id: newId('organization'),
      name: 'Merch Co',
      handle: `merch-${randomUUID().slice(0, 8)}`,
      kind: 'venue',
      timezone: 'Africa/Nairobi',
      currency: 'KES',
      external_id: null,
      metadata: '{}',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return org.id;
}

/** A product order of two lines (2 × 1000 and 1 × 500, shipping 300) unless `input` says otherwise. */
export function newOrder(t: TestServer, tenant: Tenant, organizationId: string, input: Partial<CreateOrderInput> = {}) {
  const scope = { tenantId: tenant.tenant.id, livemode: false };
  return prepareOrder(t.ctx, scope, organizationId, true).then((prepared) => t.ctx.db.transaction().execute((trx) =>
    createOrder(trx, t.ctx, scope, {
      prepared,
      kind: 'product',
      organizationId,
      currency: 'KES',
      buyer: { name: 'Wanjiru', email: 'Wanjiru@example.test', phone: null },
      lineItems: [
        { description: 'T-shirt, Black / L', quantity: 2, unitAmount: 1000, product: { product: 'prd_1', variant: 'var_1', sku: 'TS-BL-L', kind: 'physical' } },
        { description: 'Poster', quantity: 1, unitAmount: 500, product: { product: 'prd_2', variant: 'var_2', sku: null, kind: 'physical' } },
      ],
      amountShipping: 300,
      expiresAt: new Date(Date.now() + 15 * 60_000),
      redirectUrl: 'https://shop.example.test/done',
      ...input,
    }),
  ));
}
