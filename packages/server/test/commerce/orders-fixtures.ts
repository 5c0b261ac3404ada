/** A buyer of a test: a distinct email per index. */
export const buyer = (i: number | string) => ({ name: `Fan ${i}`, email: `fan${i}@example.test` });

export const address = { name: 'Achieng Otieno', phone: '+254711222333', line1: 'Kenyatta Ave 1', city: 'Nairobi', country: 'KE' };

/** The body of `POST /v1/orders` for `quantity` units of one variant, shipped to a Nairobi address. */
export const orderBody = (variant: string, quantity: number, i: number | string, extra: Record<string, unknown> = {}) => ({
  line_items: [{ variant, quantity }],
  buyer: buyer(i),
  shipping_address: address,
  ...extra,
});

import type { Response } from 'supertest';
import type { TestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { pk, sk, type Tenant } from './commerce-fixtures';

let keys = 0;
const unlimited = new Set<string>();
/**
 * `POST /v1/orders` with a fresh Idempotency-Key, as a storefront (publishable key) unless `auth` says otherwise.
 * The tenant's publishable limit (20/s by default) is raised first: a quick machine places orders faster.
 */
export async function placeOrder(t: TestServer, tenant: Tenant, body: Record<string, unknown>, auth: Record<string, string> = pk(tenant)): Promise<Response> {
  if (!unlimited.has(tenant.tenant.id)) {
    expectStatus(await t.http().patch(`/v1/operator/tenants/${tenant.tenant.id}`).set(t.operator).send({ rate_limits: { publishable: 100_000 } }), 200);
    unlimited.add(tenant.tenant.id);
  }
  return t.http().post('/v1/orders').set(auth).set('Idempotency-Key', `order-${Date.now()}-${keys++}`).send(body);
}

export const sessionOf = (order: { checkout_url: string | null }) => order.checkout_url!.slice(order.checkout_url!.lastIndexOf('/') + 1);

/** Pays an order's checkout in the simulator with the success card. */
export async function payOrder(t: TestServer, order: { checkout_url: string | null }) {
  return expectStatus(await t.http().post(`/v1/checkout/sessions/${sessionOf(order)}/pay`).send({ method: 'card', card_number: '4242424242424242' }), 200).data;
}

export const readOrder = async (t: TestServer, tenant: Tenant, id: string) => expectStatus(await t.http().get(`/v1/orders/${id}`).set(sk(tenant)), 200).data;

export const refundOrder = (t: TestServer, tenant: Tenant, id: string, body: Record<string, unknown> = {}) =>
  t.http().post(`/v1/orders/${id}/refunds`).set(sk(tenant)).set('Idempotency-Key', `refund-${Date.now()}-${keys++}`).send(body);
