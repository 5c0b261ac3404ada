import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { contentIn, creatorOrg, header, makePublic, pk, readyAsset, sk } from './creators-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

const ids = (res: { data: Array<{ id: string }> }) => res.data.map((c) => c.id);

describe('public content reads', () => {
  it('list and show published content of public capsules only: never drafts, reviews, rejections or private capsules', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'open.capsule');
    await creatorOrg(t, tenant, 'closed.capsule');
    await makePublic(t, tenant, 'open.capsule');
    const asset = await readyAsset(t, tenant);
    const signedAsset = await readyAsset(t, tenant, 'signed');
    const hidden: Array<{ id: string; slug: string }> = [];
    for (const status of ['draft', 'pending_review', 'changes_requested', 'rejected']) hidden.push(await contentIn(t, tenant, 'open.capsule', status, { title: `Open ${status}`, items: [asset] }));
    const published = await contentIn(t, tenant, 'open.capsule', 'published', { title: 'Open drop', trailer: asset, items: [asset, signedAsset], price: { amount: 20000, currency: 'KES' } });
    const unlisted = await contentIn(t, tenant, 'open.capsule', 'published', { title: 'Open unlisted', visibility: 'unlisted' });
    const closed = await contentIn(t, tenant, 'closed.capsule', 'published', { title: 'Closed drop' });
    hidden.push(closed);

    const list = expectStatus(await t.http().get('/v1/plus/contents').set(pk(tenant)), 200);
    expect(ids(list)).toEqual([published.id]);
    expect(list.data[0]).toEqual({
      id: published.id,
      object: 'content',
      type: 'drop',
      title: 'Open drop',
      slug: 'open-drop',
      description: null,
      trailer: { id: asset, status: 'ready', duration: 30, playback_ids: [{ id: expect.stringMatching(/^pb_/), policy: 'public' }] },
      items_count: 2,
      price: { amount: 20000, currency: 'KES' },
      gate: null,
      locked: false,
      items: null,
      organization: { id: expect.stringMatching(/^org_/), name: 'Nyashinski', handle: 'open.capsule' },
      published_at: expect.any(String),
    });
    for (const item of hidden) {
      expectError(await t.http().get(`/v1/plus/contents/${item.slug}`).set(pk(tenant)), 404, 'resource_not_found');
      expectError(await t.http().get(`/v1/plus/contents/${item.id}`).set(pk(tenant)), 404, 'resource_not_found');
    }
    // Unlisted content is not listed, but its address works.
    expect(expectStatus(await t.http().get(`/v1/plus/contents/${unlisted.slug}`).set(pk(tenant)), 200).data.id).toBe(unlisted.id);
    expect(expectStatus(await t.http().get(`/v1/plus/contents/${published.id}`).set(pk(tenant)), 200).data).toEqual(list.data[0]);
    // Making the closed capsule public shows its published content; making it private again hides it.
    await makePublic(t, tenant, 'closed.capsule');
    expect(ids(expectStatus(await t.http().get('/v1/plus/contents').set(pk(tenant)), 200))).toEqual([closed.id, published.id]);
    expectStatus(await t.http().patch('/v1/creator/orgs/closed.capsule/capsule-profile').set(sk(tenant)).send({ is_public: false }), 200);
    expect(ids(expectStatus(await t.http().get('/v1/plus/contents').set(pk(tenant)), 200))).toEqual([published.id]);
    expectError(await t.http().get(`/v1/plus/contents/${closed.slug}`).set(pk(tenant)), 404, 'resource_not_found');
  });

  it('filters by organization (id or handle) and type, and pages with cursors', async () => {
    const tenant = await t.tenant();
    const a = await creatorOrg(t, tenant, 'org.a');
    await creatorOrg(t, tenant, 'org.b');
    await makePublic(t, tenant, 'org.a');
    await makePublic(t, tenant, 'org.b');
    const a1 = await contentIn(t, tenant, 'org.a', 'published', { title: 'A one', type: 'post' });
    const a2 = await contentIn(t, tenant, 'org.a', 'published', { title: 'A two', type: 'video' });
    const b1 = await contentIn(t, tenant, 'org.b', 'published', { title: 'B one' });
    expect(ids(expectStatus(await t.http().get('/v1/plus/contents').query({ organization: a.id }).set(pk(tenant)), 200))).toEqual([a2.id, a1.id]);
    expect(ids(expectStatus(await t.http().get('/v1/plus/contents').query({ organization: 'org.b' }).set(pk(tenant)), 200))).toEqual([b1.id]);
    expect(ids(expectStatus(await t.http().get('/v1/plus/contents').query({ organization: 'nobody' }).set(pk(tenant)), 200))).toEqual([]);
    expect(ids(expectStatus(await t.http().get('/v1/plus/contents').query({ type: 'post' }).set(pk(tenant)), 200))).toEqual([a1.id]);
    const page1 = expectStatus(await t.http().get('/v1/plus/contents').query({ limit: 2 }).set(pk(tenant)), 200);
    expect(ids(page1)).toEqual([b1.id, a2.id]);
    expect(page1.meta.pagination.has_more).toBe(true);
    const page2 = expectStatus(await t.http().get('/v1/plus/contents').query({ limit: 2, cursor: page1.meta.pagination.next_cursor }).set(pk(tenant)), 200);
    expect(ids(page2)).toEqual([a1.id]);
    expectError(await t.http().get('/v1/plus/contents').query({ type: 'merch' }).set(pk(tenant)), 422, 'validation_failed', { param: 'type' });
  });

  it('serves the tenant header alone (live mode) and keeps environments and tenants apart', async () => {
    const tenant = await t.tenant();
    const live = bearer(tenant.keys.live.secret);
    expectStatus(await t.http().post('/v1/organizations').set(live).send({ name: 'Live one', handle: 'live.one', kind: 'creator' }), 201);
    expectStatus(await t.http().patch('/v1/creator/orgs/live.one/capsule-profile').set(live).send({ is_public: true }), 200);
    const post = expectStatus(await t.http().post('/v1/creator/orgs/live.one/contents').set(live).send({ type: 'post', title: 'Live post' }), 201).data;
    expectStatus(await t.http().post(`/v1/creator/orgs/live.one/contents/${post.slug}/submit`).set(live), 200);
    expectStatus(await t.http().post(`/v1/tenant/admin/plus/approvals/${post.slug}/approve`).set(live).send({}), 200);
    expect(ids(expectStatus(await t.http().get('/v1/plus/contents').set(header(tenant)), 200))).toEqual([post.id]);
    expectStatus(await t.http().get(`/v1/public/capsules/live.one`).set(header(tenant)), 200);
    // Test mode does not see live content; another tenant sees none of it.
    expect(ids(expectStatus(await t.http().get('/v1/plus/contents').set(pk(tenant)), 200))).toEqual([]);
    expectError(await t.http().get(`/v1/plus/contents/${post.slug}`).set(pk(tenant)), 404, 'resource_not_found');
    const other = await t.tenant('Other');
    expectError(await t.http().get(`/v1/plus/contents/${post.id}`).set(header(other)), 404, 'resource_not_found');
    expectError(await t.http().get('/v1/public/capsules/live.one').set(header(other)), 404, 'resource_not_found');
  });
});
