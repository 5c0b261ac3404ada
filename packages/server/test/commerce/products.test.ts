import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { eventsOf } from '../ticketing/payments-fixtures';
import { creatorOrg, orgMember, pk, product, readyAsset, sk, tshirtVariants, type Tenant } from './commerce-fixtures';

const t = useTestServer();

describe('products and variants', () => {
  let tenant: Tenant;
  let org: { id: string; handle: string };

  it('creates a physical product in draft with variants; the organization\'s currency by default', async () => {
    tenant = await t.tenant('Merch');
    org = await creatorOrg(t, tenant, 'merch_band');
    const made = await product(t, tenant, org.id, { status: undefined, external_id: 'tee-1', metadata: { drop: 'tour' } });
    expect(made).toMatchObject({ object: 'product', status: 'draft', kind: 'physical', currency: 'KES', max_per_order: 10, published_at: null, grants: [] });
    expect(made.id).toMatch(/^prd_/);
    expect(made.variants).toHaveLength(3);
    expect(made.variants[0]).toMatchObject({ object: 'product_variant', stock: 10, reserved: 0, available: 10, sold: 0, active: true });
    expect(made.variants[0].id).toMatch(/^var_/);
    const read = expectStatus(await t.http().get(`/v1/commerce/products/${made.id}`).set(sk(tenant)), 200).data;
    expect(read).toEqual(made);
    expect(expectStatus(await t.http().get('/v1/commerce/products/external/tee-1').set(sk(tenant)), 200).data.id).toBe(made.id);
    const listed = expectStatus(await t.http().get('/v1/commerce/products').query({ 'metadata[drop]': 'tour', status: 'draft' }).set(sk(tenant)), 200).data;
    expect(listed.map((p: { id: string }) => p.id)).toEqual([made.id]);
    expect((await eventsOf(t, tenant, 'commerce.product.created'))[0]!.data.object.id).toBe(made.id);
    expectError(await t.http().post('/v1/commerce/products').set(sk(tenant)).send({ organization: org.id, kind: 'physical', name: 'x', external_id: 'tee-1' }), 409, 'external_id_taken');
  });

  it('publishes only with an active variant, and a digital product only with a grant', async () => {
    const bare = expectStatus(await t.http().post('/v1/commerce/products').set(sk(tenant)).send({ organization: org.id, kind: 'physical', name: 'Poster' }), 201).data;
    expectError(await t.http().patch(`/v1/commerce/products/${bare.id}`).set(sk(tenant)).send({ status: 'published' }), 422, 'validation_failed', { param: 'variants' });
    const v = expectStatus(await t.http().post(`/v1/commerce/products/${bare.id}/variants`).set(sk(tenant)).send({ name: 'A2', sku: `POSTER-${Date.now()}`, price: 1000, active: false }), 201).data;
    expectError(await t.http().patch(`/v1/commerce/products/${bare.id}`).set(sk(tenant)).send({ status: 'published' }), 422, 'validation_failed', { param: 'variants' });
    expectStatus(await t.http().patch(`/v1/commerce/variants/${v.id}`).set(sk(tenant)).send({ active: true }), 200);
    const published = expectStatus(await t.http().patch(`/v1/commerce/products/${bare.id}`).set(sk(tenant)).send({ status: 'published' }), 200).data;
    expect(published.status).toBe('published');
    expect(published.published_at).not.toBeNull();
    expect((await eventsOf(t, tenant, 'commerce.product.published'))[0]!.data.object.id).toBe(bare.id);
    const archived = expectStatus(await t.http().patch(`/v1/commerce/products/${bare.id}`).set(sk(tenant)).send({ status: 'archived' }), 200).data;
    expect(archived.status).toBe('archived');
    expect((await eventsOf(t, tenant, 'commerce.product.archived'))[0]!.data.object.id).toBe(bare.id);

    const digitalBody = { organization: org.id, kind: 'digital', name: 'Live album', variants: [{ name: 'Download', sku: `ALBUM-${Date.now()}`, price: 500 }] };
    expectError(await t.http().post('/v1/commerce/products').set(sk(tenant)).send({ ...digitalBody, status: 'published' }), 422, 'validation_failed', { param: 'grants' });
    expectError(await t.http().post('/v1/commerce/products').set(sk(tenant)).send({ ...digitalBody, grants: [{ type: 'ast', id: 'ast_unknown' }] }), 404, 'resource_not_found', { param: 'grants.0.id' });
    expectError(await t.http().post('/v1/commerce/products').set(sk(tenant)).send({ organization: org.id, kind: 'physical', name: 'x', grants: [{ type: 'ast', id: 'ast_unknown' }] }), 422, 'validation_failed', { param: 'grants' });
    const asset = await readyAsset(t, tenant);
    const digital = expectStatus(await t.http().post('/v1/commerce/products').set(sk(tenant)).send({ ...digitalBody, status: 'published', grants: [{ type: 'ast', id: asset }], grant_duration_days: 30, grant_limits: { max_devices: 2 } }), 201).data;
    expect(digital).toMatchObject({ status: 'published', grants: [{ type: 'ast', id: asset }], grant_duration_days: 30, grant_limits: { max_devices: 2, concurrency_policy: 'replace_oldest' } });
    expectError(await t.http().patch(`/v1/commerce/products/${digital.id}`).set(sk(tenant)).send({ grants: [] }), 422, 'validation_failed', { param: 'grants' });
    expectError(await t.http().patch(`/v1/commerce/products/${digital.id}`).set(sk(tenant)).send({ kind: 'physical' }), 422, 'validation_failed');
  });

  it('keeps SKUs unique per environment without case (409 sku_taken)', async () => {
    const made = await product(t, tenant, org.id, { variants: [{ name: 'One', sku: 'Cap-Red', price: 900 }] });
    expectError(await t.http().post(`/v1/commerce/products/${made.id}/variants`).set(sk(tenant)).send({ name: 'Two', sku: 'cap-red', price: 900 }), 409, 'sku_taken', { param: 'sku' });
    expectError(await t.http().post('/v1/commerce/products').set(sk(tenant)).send({ organization: org.id, kind: 'physical', name: 'Caps', variants: [{ name: 'a', sku: 'CAP-X', price: 1 }, { name: 'b', sku: 'cap-x', price: 1 }] }), 409, 'sku_taken', { param: 'variants.1.sku' });
    expectError(await t.http().post('/v1/commerce/products').set(sk(tenant)).send({ organization: org.id, kind: 'physical', name: 'Caps', variants: [{ name: 'a', sku: 'CAP-RED', price: 1 }] }), 409, 'sku_taken', { param: 'variants.0.sku' });
    const other = expectStatus(await t.http().post(`/v1/commerce/products/${made.id}/variants`).set(sk(tenant)).send({ name: 'Two', sku: 'Cap-Blue', price: 900 }), 201).data;
    expectError(await t.http().patch(`/v1/commerce/variants/${other.id}`).set(sk(tenant)).send({ sku: 'CAP-red' }), 409, 'sku_taken');
    // Its own SKU in another case is no clash.
    expect(expectStatus(await t.http().patch(`/v1/commerce/variants/${other.id}`).set(sk(tenant)).send({ sku: 'CAP-BLUE' }), 200).data.sku).toBe('CAP-BLUE');
    // Another tenant may use the same SKU.
    const second = await t.tenant('Other');
    const secondOrg = await creatorOrg(t, second, 'other_band');
    await product(t, second, secondOrg.id, { variants: [{ name: 'One', sku: 'Cap-Red', price: 900 }] });
  });

  it('refuses a stock below what pending orders hold (422 param stock), by the update\'s own condition', async () => {
    const made = await product(t, tenant, org.id);
    const variant = made.variants[0];
    await t.ctx.db.updateTable('product_variants').set({ reserved: 4 }).where('id', '=', variant.id).execute();
    expectError(await t.http().patch(`/v1/commerce/variants/${variant.id}`).set(sk(tenant)).send({ stock: 3 }), 422, 'validation_failed', { param: 'stock' });
    const ok = expectStatus(await t.http().patch(`/v1/commerce/variants/${variant.id}`).set(sk(tenant)).send({ stock: 4, price: 3000 }), 200).data;
    expect(ok).toMatchObject({ stock: 4, reserved: 4, available: 0, price: 3000 });
    expect(expectStatus(await t.http().patch(`/v1/commerce/variants/${variant.id}`).set(sk(tenant)).send({ stock: null }), 200).data).toMatchObject({ stock: null, available: null });
    await t.ctx.db.updateTable('product_variants').set({ reserved: 0 }).where('id', '=', variant.id).execute();
  });

  it('answers bad input with 422 and unknown ids with 404', async () => {
    const base = { organization: org.id, kind: 'physical', name: 'x' };
    const bad: [Record<string, unknown>, string][] = [
      [{ ...base, kind: 'service' }, 'kind'],
      [{ ...base, name: '' }, 'name'],
      [{ ...base, images: ['http://insecure.example/a.png'] }, 'images.0'],
      [{ ...base, max_per_order: 101 }, 'max_per_order'],
      [{ ...base, variants: [{ name: 'a', sku: 'bad sku!', price: 1 }] }, 'variants.0.sku'],
      [{ ...base, variants: [{ name: 'a', sku: 'OK-1', price: -1 }] }, 'variants.0.price'],
      [{ ...base, variants: [{ name: 'a', sku: 'OK-1', price: 1, stock: -5 }] }, 'variants.0.stock'],
      [{ ...base, variants: [{ name: 'a', sku: 'OK-1', price: 1, options: { a: '1', b: '2', c: '3', d: '4' } }] }, 'variants.0.options'],
    ];
    for (const [body, param] of bad) {
      const err = expectError(await t.http().post('/v1/commerce/products').set(sk(tenant)).send(body), 422, 'validation_failed');
      expect(JSON.stringify(err), param).toContain(param);
    }
    expectError(await t.http().post('/v1/commerce/products').set(sk(tenant)).send({ ...base, organization: 'org_nope' }), 422, 'validation_failed', { param: 'organization' });
    expectError(await t.http().get('/v1/commerce/products/prd_nope').set(sk(tenant)), 404, 'resource_not_found');
    expectError(await t.http().patch('/v1/commerce/variants/var_nope').set(sk(tenant)).send({ price: 1 }), 404, 'resource_not_found');
  });

  it('keeps another tenant\'s products out of reach (404)', async () => {
    const made = await product(t, tenant, org.id);
    const other = await t.tenant('Stranger');
    expectError(await t.http().get(`/v1/commerce/products/${made.id}`).set(sk(other)), 404, 'resource_not_found');
    expectError(await t.http().patch(`/v1/commerce/variants/${made.variants[0].id}`).set(sk(other)).send({ price: 1 }), 404, 'resource_not_found');
    expectError(await t.http().get(`/v1/public/products/${made.id}`).set(pk(other)), 404, 'resource_not_found');
  });

  it('takes commerce scopes from restricted keys and commerce permissions from members', async () => {
    const readKey = expectStatus(await t.http().post('/v1/keys').set(sk(tenant)).send({ type: 'restricted', scopes: ['commerce:read'] }), 201).data.secret;
    const eventsKey = expectStatus(await t.http().post('/v1/keys').set(sk(tenant)).send({ type: 'restricted', scopes: ['events:write'] }), 201).data.secret;
    expectStatus(await t.http().get('/v1/commerce/products').set({ authorization: `Bearer ${readKey}` }), 200);
    expectError(await t.http().post('/v1/commerce/products').set({ authorization: `Bearer ${readKey}` }).send({ organization: org.id, kind: 'physical', name: 'x' }), 403, 'missing_scope');
    expectError(await t.http().get('/v1/commerce/products').set({ authorization: `Bearer ${eventsKey}` }), 403, 'missing_scope');

    const manager = await orgMember(t, tenant, org.id, 'manager');
    const viewer = await orgMember(t, tenant, org.id, 'viewer');
    const made = expectStatus(await t.http().post('/v1/commerce/products').set(manager.auth).send({ organization: org.id, kind: 'physical', name: 'By a manager' }), 201).data;
    expectStatus(await t.http().get(`/v1/commerce/products/${made.id}`).set(viewer.auth), 200);
    expectError(await t.http().patch(`/v1/commerce/products/${made.id}`).set(viewer.auth).send({ name: 'no' }), 403, 'missing_permission');
    expectError(await t.http().patch(`/v1/organizations/${org.id}/commerce_settings`).set(viewer.auth).send({ shipping_fee: 1 }), 403, 'missing_permission');
    // A manager of another organization neither sees nor changes this one's products.
    const elsewhere = await creatorOrg(t, tenant, 'elsewhere_band');
    const stranger = await orgMember(t, tenant, elsewhere.id, 'manager');
    expectError(await t.http().get(`/v1/commerce/products/${made.id}`).set(stranger.auth), 403, 'missing_permission');
    expectError(await t.http().post('/v1/commerce/products').set(stranger.auth).send({ organization: org.id, kind: 'physical', name: 'x' }), 403, 'missing_permission');
    const theirs = expectStatus(await t.http().get('/v1/commerce/products').set(stranger.auth), 200).data;
    expect(theirs).toEqual([]);
    const checkin = await orgMember(t, tenant, org.id, 'checkin');
    expectError(await t.http().get('/v1/commerce/products').set(checkin.auth), 403, 'missing_permission');
  });

  it('keeps commerce settings per organization, with defaults', async () => {
    const defaults = expectStatus(await t.http().get(`/v1/organizations/${org.id}/commerce_settings`).set(sk(tenant)), 200).data;
    expect(defaults).toEqual({ object: 'commerce_settings', organization: org.id, hold_minutes: 15, shipping_fee: 0, pickup_enabled: false, pickup_instructions: null, updated_at: null });
    const changed = expectStatus(await t.http().patch(`/v1/organizations/${org.id}/commerce_settings`).set(sk(tenant)).send({ shipping_fee: 30000, pickup_enabled: true }), 200).data;
    expect(changed).toMatchObject({ hold_minutes: 15, shipping_fee: 30000, pickup_enabled: true });
    const again = expectStatus(await t.http().patch(`/v1/organizations/${org.id}/commerce_settings`).set(sk(tenant)).send({ hold_minutes: 30, pickup_instructions: 'Gate B' }), 200).data;
    expect(again).toMatchObject({ hold_minutes: 30, shipping_fee: 30000, pickup_enabled: true, pickup_instructions: 'Gate B' });
    expectError(await t.http().patch(`/v1/organizations/${org.id}/commerce_settings`).set(sk(tenant)).send({ hold_minutes: 4 }), 422, 'validation_failed');
    expectError(await t.http().get('/v1/organizations/org_nope/commerce_settings').set(sk(tenant)), 404, 'resource_not_found');
  });

  it('shows published products to the public without a stock figure, and merch on the capsule', async () => {
    const fresh = await t.tenant('Capsule');
    const band = await creatorOrg(t, fresh, 'capsule_band');
    expectStatus(await t.http().patch(`/v1/creator/orgs/${band.handle}/capsule-profile`).set(sk(fresh)).send({ is_public: true }), 200);
    let capsule = expectStatus(await t.http().get(`/v1/public/capsules/${band.handle}`).set(pk(fresh)), 200).data;
    expect(capsule.featured.merch).toBeNull();
    expect(capsule.stats.merch_count).toBe(0);
    expect(capsule.availability.has_merch).toBe(false);

    const variants = tshirtVariants(5, 2500);
    variants[2]!.stock = 0;
    const tee = await product(t, fresh, band.id, { variants: [...variants, { name: 'Hidden', sku: `HIDDEN-${Date.now()}`, price: 100, active: false }] });
    await product(t, fresh, band.id, { status: 'draft', name: 'Draft hoodie' });
    const listed = expectStatus(await t.http().get('/v1/public/products').query({ organization: band.handle }).set(pk(fresh)), 200).data;
    expect(listed.map((p: { id: string }) => p.id)).toEqual([tee.id]);
    const pub = expectStatus(await t.http().get(`/v1/public/products/${tee.id}`).set(pk(fresh)), 200).data;
    expect(pub).toMatchObject({ id: tee.id, price_from: 2500, organization: { id: band.id, handle: band.handle } });
    expect(pub.variants.map((v: { available: boolean }) => v.available)).toEqual([true, true, false]);
    const text = JSON.stringify(pub);
    for (const word of ['stock', 'reserved', 'sold', 'sku']) expect(text).not.toContain(`"${word}"`);

    capsule = expectStatus(await t.http().get(`/v1/public/capsules/${band.handle}`).set(pk(fresh)), 200).data;
    expect(capsule.stats.merch_count).toBe(1);
    expect(capsule.availability.has_merch).toBe(true);
    expect(capsule.featured.merch.map((p: { id: string }) => p.id)).toEqual([tee.id]);
    expect(JSON.stringify(capsule.featured.merch)).not.toContain('"stock"');

    expectStatus(await t.http().patch(`/v1/commerce/products/${tee.id}`).set(sk(fresh)).send({ status: 'archived' }), 200);
    expectError(await t.http().get(`/v1/public/products/${tee.id}`).set(pk(fresh)), 404, 'resource_not_found');
  });

  it('needs the commerce product switched on', async () => {
    const off = await t.tenant('No shop', ['events', 'streams', 'identity']);
    expectError(await t.http().get('/v1/commerce/products').set(sk(off)), 403, 'product_not_enabled');
  });
});
