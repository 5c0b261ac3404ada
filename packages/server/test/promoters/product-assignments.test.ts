import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { product } from '../commerce/commerce-fixtures';
import { orderBody, payOrder, placeOrder } from '../commerce/orders-fixtures';
import { seedOrganization } from '../orders/order-kinds-fixtures';
import { assign, commissionsOf, createPromoter, sk, trackingCode } from './promoters-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
let n = 0;

describe('assignments to one product', () => {
  it('a product assignment covers that product\'s lines only, with its own rule', async () => {
    const tenant = await t.tenant();
    const organization = await seedOrganization(t, tenant);
    const promoter = await createPromoter(t, tenant, organization);
    const tee = await product(t, tenant, organization);
    const cap = await product(t, tenant, organization, { name: 'Cap' });
    const rule = await assign(t, tenant, promoter.id, { target: { type: 'product', id: tee.id }, commission: { type: 'fixed', amount: 300 } });
    expect(rule).toMatchObject({ target: { type: 'product', id: tee.id }, active: true });
    expectError(await t.http().post(`/v1/promoters/${promoter.id}/assignments`).set(sk(tenant)).send({ target: { type: 'product', id: tee.id }, commission: { type: 'fixed', amount: 1 } }), 409, 'assignment_exists');
    const code = `TEE${Date.now() % 1e6}${n++}`;
    await trackingCode(t, tenant, promoter.id, code);

    const teeOrder = expectStatus(await placeOrder(t, tenant, orderBody(tee.variants[0].id, 2, `tee-${n}`, { ref: code })), 201).data;
    expect(teeOrder.attribution).toMatchObject({ promoter: promoter.id, assignment: rule.id });
    await payOrder(t, teeOrder);
    // 300 per unit, two units.
    expect((await commissionsOf(t, tenant, { order: teeOrder.id })).map((e) => [e.type, e.amount])).toEqual([['commission', 600]]);

    // No assignment covers the cap: the order goes on, unattributed.
    const capOrder = expectStatus(await placeOrder(t, tenant, orderBody(cap.variants[0].id, 1, `cap-${n}`, { ref: code })), 201).data;
    expect(capOrder.attribution).toBeNull();
  });

  it('the product must be the promoter\'s organization\'s, of this tenant and environment', async () => {
    const tenant = await t.tenant();
    const organization = await seedOrganization(t, tenant);
    const promoter = await createPromoter(t, tenant, organization);
    const elsewhere = await product(t, tenant, await seedOrganization(t, tenant));
    const other = await t.tenant('Other');
    const foreign = await product(t, other, await seedOrganization(t, other));
    for (const id of [elsewhere.id, foreign.id, 'prd_unknown']) {
      expectError(await t.http().post(`/v1/promoters/${promoter.id}/assignments`).set(sk(tenant)).send({ target: { type: 'product', id }, commission: { type: 'percent', basis_points: 500 } }), 422, 'validation_failed', { param: 'target.id' });
    }
  });
});
