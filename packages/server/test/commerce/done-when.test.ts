import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { eventsOf } from '../ticketing/payments-fixtures';
import { creatorOrg, pk, readyAsset, sk, signIn, type Tenant } from './commerce-fixtures';
import { address, payOrder, placeOrder, readOrder, refundOrder } from './orders-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

describe('the issue\'s "done when", in test mode', () => {
  let tenant: Tenant;

  it('sells a T-shirt in three sizes and a download, ships the shirt, grants the download and takes it back on refund; the capsule shows the merch', async () => {
    tenant = await t.tenant('Sauti');
    const org = await creatorOrg(t, tenant, 'sauti_sol');
    expectStatus(await t.http().patch(`/v1/creator/orgs/${org.handle}/capsule-profile`).set(sk(tenant)).send({ is_public: true }), 200);
    expectStatus(await t.http().patch(`/v1/organizations/${org.id}/commerce_settings`).set(sk(tenant)).send({ shipping_fee: 30000 }), 200);

    // The organizer lists a T-shirt in three sizes and a digital download.
    const tee = expectStatus(
      await t.http().post('/v1/commerce/products').set(sk(tenant)).send({
        organization: org.id,
        kind: 'physical',
        name: 'Tour T-shirt',
        images: ['https://cdn.example.com/tee.jpg'],
        variants: ['S', 'M', 'L'].map((size) => ({ name: `Black / ${size}`, sku: `SAUTI-TEE-${size}`, options: { size }, price: 250000, stock: 20 })),
        status: 'published',
      }),
      201,
    ).data;
    const album = await readyAsset(t, tenant);
    const download = expectStatus(
      await t.http().post('/v1/commerce/products').set(sk(tenant)).send({
        organization: org.id,
        kind: 'digital',
        name: 'Live album',
        variants: [{ name: 'Download', sku: 'SAUTI-ALBUM', price: 80000 }],
        grants: [{ type: 'ast', id: album }],
        grant_duration_days: 365,
        status: 'published',
      }),
      201,
    ).data;

    // The capsule shows the merch.
    const capsule = expectStatus(await t.http().get(`/v1/public/capsules/${org.handle}`).set(pk(tenant)), 200).data;
    expect(capsule.stats.merch_count).toBe(2);
    expect(capsule.availability.has_merch).toBe(true);
    expect(capsule.featured.merch.map((p: { id: string }) => p.id).sort()).toEqual([tee.id, download.id].sort());

    // A signed-in fan buys the T-shirt in one checkout, and the download in another.
    const fan = await signIn(t, tenant);
    const fanAuth = { ...fan.auth, 'X-Tenant-Code': tenant.tenant.code };
    const shirtOrder = expectStatus(
      await placeOrder(t, tenant, { line_items: [{ variant: tee.variants[1].id, quantity: 1 }], buyer: { name: 'Wanjiku', email: 'wanjiku@example.test' }, shipping_address: address }, fanAuth),
      201,
    ).data;
    expect(shirtOrder).toMatchObject({ kind: 'product', customer: fan.customer, amount_total: 280000 });
    await payOrder(t, shirtOrder);
    const albumOrder = expectStatus(await placeOrder(t, tenant, { line_items: [{ variant: download.variants[0].id, quantity: 1 }], buyer: { email: 'wanjiku@example.test' } }, fanAuth), 201).data;
    expect(albumOrder).toMatchObject({ shipping_method: null, shipping_address: null, amount_shipping: 0, amount_total: 80000 });
    await payOrder(t, albumOrder);

    // The fan gets the download's entitlement: source payment, the order code as source_ref.
    const granted = expectStatus(await t.http().get('/v1/access/entitlements').query({ customer: fan.customer, resource: album }).set(sk(tenant)), 200).data;
    expect(granted).toHaveLength(1);
    expect(granted[0]).toMatchObject({ source: 'payment', source_ref: albumOrder.code, status: 'active', resource: { type: 'ast', id: album } });
    const paidAlbum = await readOrder(t, tenant, albumOrder.id);
    expect(new Date(granted[0].ends_at).getTime() - new Date(paidAlbum.paid_at).getTime()).toBe(365 * 86_400_000);
    // A digital-only order is fulfilled when paid.
    expect(paidAlbum.fulfillment_status).toBe('fulfilled');

    // The organizer ships the T-shirt with a tracking number.
    const shipped = expectStatus(await t.http().post(`/v1/orders/${shirtOrder.id}/fulfillment`).set(sk(tenant)).send({ status: 'shipped', carrier: 'Sendy', tracking_number: 'SND-42' }), 200).data;
    expect(shipped).toMatchObject({ fulfillment_status: 'shipped', fulfillment: { carrier: 'Sendy', tracking_number: 'SND-42' } });
    expect((await eventsOf(t, tenant, 'commerce.order.shipped'))[0]!.data.object.id).toBe(shirtOrder.id);

    // A refund of the download takes the entitlement away.
    expectStatus(await refundOrder(t, tenant, albumOrder.id, { reason: 'changed my mind' }), 201);
    expect(await readOrder(t, tenant, albumOrder.id)).toMatchObject({ status: 'refunded', amount_refunded: 80000 });
    const after = expectStatus(await t.http().get('/v1/access/entitlements').query({ customer: fan.customer, resource: album }).set(sk(tenant)), 200).data;
    expect(after[0]).toMatchObject({ status: 'revoked' });
    expect((await eventsOf(t, tenant, 'commerce.order.refunded'))[0]!.data.object.id).toBe(albumOrder.id);
  });

  it('takes a refunded digital line\'s grant back and keeps the others', async () => {
    const org = await creatorOrg(t, tenant, 'two_downloads');
    const [a, b] = [await readyAsset(t, tenant), await readyAsset(t, tenant)];
    const make = async (name: string, asset: string, sku: string) =>
      expectStatus(
        await t.http().post('/v1/commerce/products').set(sk(tenant)).send({ organization: org.id, kind: 'digital', name, variants: [{ name: 'Download', sku, price: 1000 }], grants: [{ type: 'ast', id: asset }], status: 'published' }),
        201,
      ).data;
    const first = await make('EP one', a, 'EP-ONE');
    const second = await make('EP two', b, 'EP-TWO');
    const order = expectStatus(
      await placeOrder(t, tenant, { line_items: [{ variant: first.variants[0].id, quantity: 1 }, { variant: second.variants[0].id, quantity: 1 }], buyer: { email: 'guest@example.test' } }),
      201,
    ).data;
    await payOrder(t, order);
    const all = expectStatus(await t.http().get('/v1/access/entitlements').query({ status: 'active' }).set(sk(tenant)), 200).data.filter((e: { source_ref: string }) => e.source_ref === order.code);
    expect(all).toHaveLength(2);
    const guest = all[0].customer;
    const [lineOne] = (await readOrder(t, tenant, order.id)).line_items;
    expectStatus(await refundOrder(t, tenant, order.id, { line_items: [{ id: lineOne.id, quantity: 1 }] }), 201);
    const left = expectStatus(await t.http().get('/v1/access/entitlements').query({ customer: guest }).set(sk(tenant)), 200).data;
    expect(left.find((e: { resource: { id: string } }) => e.resource.id === a).status).toBe('revoked');
    expect(left.find((e: { resource: { id: string } }) => e.resource.id === b).status).toBe('active');
  });
});
