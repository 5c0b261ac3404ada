import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { eventsOf } from '../ticketing/payments-fixtures';
import { creatorOrg, orgMember, product, sk, type Tenant } from './commerce-fixtures';
import { address, orderBody, payOrder, placeOrder, readOrder } from './orders-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

let tenant: Tenant;
let org: { id: string; handle: string };
let variant: string;
const fulfil = (id: string, body: Record<string, unknown>, auth = sk(tenant)) => t.http().post(`/v1/orders/${id}/fulfillment`).set(auth).send(body);

async function paidOrder(i: string, extra: Record<string, unknown> = {}) {
  const order = expectStatus(await placeOrder(t, tenant, orderBody(variant, 1, i, extra)), 201).data;
  await payOrder(t, order);
  return order as { id: string; code: string };
}

const messagesTo = async (to: string) =>
  (expectStatus(await t.http().get('/v1/messages').query({ limit: 100 }).set(sk(tenant)), 200).data as { to: string; template: string; body: string }[]).filter((m) => m.to === to && m.template === 'order_fulfillment');

describe('fulfilment', () => {
  it('moves a paid delivery order through fulfilled, shipped and delivered, with events and the buyer\'s messages', async () => {
    tenant = await t.tenant('Fulfil');
    org = await creatorOrg(t, tenant, 'fulfil_band');
    variant = (await product(t, tenant, org.id, { variants: [{ name: 'Tee', sku: 'FUL-1', price: 1000, stock: 50 }] })).variants[0].id;
    const order = await paidOrder('f1');
    expect((await readOrder(t, tenant, order.id)).fulfillment_status).toBe('unfulfilled');

    const packed = expectStatus(await fulfil(order.id, { status: 'fulfilled', note: 'Packed with care' }), 200).data;
    expect(packed).toMatchObject({ fulfillment_status: 'fulfilled', fulfillment: { note: 'Packed with care' } });
    expect(packed.fulfillment.fulfilled_at).not.toBeNull();
    const shipped = expectStatus(await fulfil(order.id, { status: 'shipped', carrier: 'G4S', tracking_number: 'G4S-123', tracking_url: 'https://track.example/G4S-123' }), 200).data;
    expect(shipped).toMatchObject({ fulfillment_status: 'shipped', fulfillment: { carrier: 'G4S', tracking_number: 'G4S-123', tracking_url: 'https://track.example/G4S-123' } });
    const delivered = expectStatus(await fulfil(order.id, { status: 'delivered', notify: false }), 200).data;
    expect(delivered.fulfillment_status).toBe('delivered');
    expect(delivered.fulfillment.delivered_at).not.toBeNull();

    expect((await eventsOf(t, tenant, 'commerce.order.fulfilled'))[0]!.data.object).toMatchObject({ id: order.id, fulfillment_status: 'fulfilled' });
    expect((await eventsOf(t, tenant, 'commerce.order.shipped'))[0]!.data.object).toMatchObject({ id: order.id, fulfillment: { tracking_number: 'G4S-123' } });
    expect((await eventsOf(t, tenant, 'commerce.order.delivered'))[0]!.data.object.id).toBe(order.id);
    const sent = await messagesTo('fanf1@example.test');
    expect(sent).toHaveLength(2);
    expect(sent.map((m) => m.body).join('\n')).toContain('G4S-123');

    const returned = expectStatus(await fulfil(order.id, { status: 'returned' }), 200).data;
    expect(returned).toMatchObject({ fulfillment_status: 'returned', status: 'paid' });
    expect((await eventsOf(t, tenant, 'commerce.order.returned'))[0]!.data.object.id).toBe(order.id);
  });

  it('refuses backward and skipped moves, unpaid orders and ticket orders', async () => {
    const order = await paidOrder('f2');
    expectError(await fulfil(order.id, { status: 'delivered' }), 409, 'invalid_state_transition');
    expectError(await fulfil(order.id, { status: 'returned' }), 409, 'invalid_state_transition');
    expectStatus(await fulfil(order.id, { status: 'shipped', carrier: 'DHL' }), 200);
    const back = expectError(await fulfil(order.id, { status: 'fulfilled' }), 409, 'invalid_state_transition');
    expect(back.details).toMatchObject({ status: 'paid', fulfillment_status: 'shipped' });
    const pending = expectStatus(await placeOrder(t, tenant, orderBody(variant, 1, 'f3')), 201).data;
    expect(expectError(await fulfil(pending.id, { status: 'fulfilled' }), 409, 'invalid_state_transition').details).toMatchObject({ status: 'pending' });
    expectError(await fulfil('ord_unknown', { status: 'fulfilled' }), 404, 'resource_not_found');
    expectError(await fulfil(order.id, { status: 'unfulfilled' }), 422, 'validation_failed');
    expectError(await fulfil(order.id, { status: 'delivered', tracking_url: 'http://insecure.example' }), 422, 'validation_failed');
  });

  it('delivers a pickup order from fulfilled; a pickup order is never shipped', async () => {
    expectStatus(await t.http().patch(`/v1/organizations/${org.id}/commerce_settings`).set(sk(tenant)).send({ pickup_enabled: true, pickup_instructions: 'Gate B, Saturdays' }), 200);
    const order = await paidOrder('f4', { shipping_method: 'pickup', shipping_address: null });
    expectError(await fulfil(order.id, { status: 'shipped' }), 409, 'invalid_state_transition');
    expectStatus(await fulfil(order.id, { status: 'fulfilled' }), 200);
    expect((await messagesTo('fanf4@example.test'))[0]!.body).toContain('Gate B, Saturdays');
    expect(expectStatus(await fulfil(order.id, { status: 'delivered' }), 200).data.fulfillment_status).toBe('delivered');
  });

  it('lets members with commerce:write move it, and no one of another organization', async () => {
    const order = await paidOrder('f5');
    const viewer = await orgMember(t, tenant, org.id, 'viewer');
    expectError(await fulfil(order.id, { status: 'fulfilled' }, viewer.auth), 403, 'missing_permission');
    const otherOrg = await creatorOrg(t, tenant, 'fulfil_other');
    const stranger = await orgMember(t, tenant, otherOrg.id, 'manager');
    expectError(await fulfil(order.id, { status: 'fulfilled' }, stranger.auth), 403, 'missing_permission');
    const manager = await orgMember(t, tenant, org.id, 'manager');
    expectStatus(await fulfil(order.id, { status: 'fulfilled' }, manager.auth), 200);
    const other = await t.tenant('Elsewhere');
    expectError(await fulfil(order.id, { status: 'shipped' }, sk(other)), 404, 'resource_not_found');
  });

  it('exports the paid orders left to pack as CSV, one row per line', async () => {
    const csvOf = async (query: Record<string, string>, auth = sk(tenant)) => {
      const res = await t.http().get('/v1/commerce/orders/export').query(query).set(auth).buffer(true).parse((r, cb) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => cb(null, text));
      });
      expect(res.status, String(res.body)).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      return String(res.body).trim().split('\n');
    };
    const fresh = await creatorOrg(t, tenant, 'pack_shop');
    const p = await product(t, tenant, fresh.id, { variants: [{ name: 'Black / L', sku: 'PACK-L', price: 100 }, { name: 'Black / M', sku: 'PACK-M', price: 100 }] });
    const [l, m] = p.variants.map((v: { id: string }) => v.id);
    const toPack = expectStatus(await placeOrder(t, tenant, { ...orderBody(l, 2, 'pack'), buyer: { name: '=HYPERLINK(1)', email: 'pack@example.test' }, line_items: [{ variant: l, quantity: 2 }, { variant: m, quantity: 1 }] }), 201).data;
    await payOrder(t, toPack);
    const packed = expectStatus(await placeOrder(t, tenant, orderBody(l, 1, 'packed')), 201).data;
    await payOrder(t, packed);
    expectStatus(await fulfil(packed.id, { status: 'fulfilled' }), 200);
    expectStatus(await placeOrder(t, tenant, orderBody(l, 1, 'unpaid')), 201);

    const lines = await csvOf({ organization: fresh.id });
    expect(lines[0]).toBe('order_code,order_id,paid_at,buyer_name,buyer_email,buyer_phone,shipping_method,ship_to_name,ship_to_phone,line1,line2,city,region,postal_code,country,instructions,sku,item,quantity,fulfillment_status');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(toPack.code);
    expect(lines[1]).toContain('PACK-L');
    expect(lines[1]).toMatch(/,2,unfulfilled$/);
    expect(lines[2]).toMatch(/PACK-M,.*,1,unfulfilled$/);
    // A cell a spreadsheet would run as a formula is shown as text.
    expect(lines[1]).toContain(`'=HYPERLINK(1)`);
    expect(lines[1]).toContain(address.line1);
    expect(await csvOf({ organization: fresh.id, fulfillment_status: 'fulfilled' })).toHaveLength(2);
    expectError(await t.http().get('/v1/commerce/orders/export').query({ format: 'xlsx' }).set(sk(tenant)), 400, 'INVALID_FORMAT');
    const member = await orgMember(t, tenant, fresh.id, 'viewer');
    expect(await csvOf({ organization: fresh.id }, member.auth)).toHaveLength(3);
    expect((await t.http().get('/v1/commerce/orders/export').set(member.auth)).status).toBe(422);
  });
});
