import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { admin, content, creatorOrg, readyAsset, sk, submit } from './creators-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

describe('the approvals list, page-numbered', () => {
  it('answers data, links and meta field for field, across two pages', async () => {
    const tenant = await t.tenant();
    const org = await creatorOrg(t, tenant, 'paged');
    const asset = await readyAsset(t, tenant);
    const slugs: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const made = await content(t, tenant, 'paged', { title: `Item ${i}`, trailer: asset, items: [asset] });
      await submit(t, tenant, 'paged', made.slug);
      slugs.push(made.slug);
    }
    // A draft and a rejected item are in other lists.
    await content(t, tenant, 'paged', { title: 'Draft' });
    const gone = await content(t, tenant, 'paged', { title: 'Gone' });
    await submit(t, tenant, 'paged', gone.slug);
    expectStatus(await admin(t, tenant, gone.slug, 'reject', { reason: 'x' }), 200);

    const base = t.ctx.config.baseUrl;
    const path = `${base}/v1/tenant/admin/plus/approvals`;
    const url = (page: number) => `${path}?status=pending_review&per_page=3&page=${page}`;
    const first = expectStatus(await t.http().get('/v1/tenant/admin/plus/approvals').query({ per_page: 3 }).set(sk(tenant)), 200);
    expect(Object.keys(first).sort()).toEqual(['data', 'links', 'meta']);
    expect(first.data.map((c: { slug: string }) => c.slug)).toEqual(slugs.slice(0, 3));
    expect(first.links).toEqual({ first: url(1), last: url(2), prev: null, next: url(2) });
    expect(first.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 2,
      links: [
        { url: null, label: '&laquo; Previous', active: false },
        { url: url(1), label: '1', active: true },
        { url: url(2), label: '2', active: false },
        { url: url(2), label: 'Next &raquo;', active: false },
      ],
      path,
      per_page: 3,
      to: 3,
      total: 5,
    });
    // Each record carries its trailer, items and organization.
    expect(first.data[0]).toMatchObject({
      object: 'content',
      status: 'pending_review',
      trailer: { id: asset, status: 'ready' },
      items: [{ id: asset, status: 'ready' }],
      organization: { id: org.id, name: 'Nyashinski', handle: 'paged' },
    });
    expect(first.data[0].approvals).toBeUndefined();

    const second = expectStatus(await t.http().get('/v1/tenant/admin/plus/approvals').query({ per_page: 3, page: 2 }).set(sk(tenant)), 200);
    expect(second.data.map((c: { slug: string }) => c.slug)).toEqual(slugs.slice(3));
    expect(second.links).toEqual({ first: url(1), last: url(2), prev: url(1), next: null });
    expect(second.meta).toEqual({
      current_page: 2,
      from: 4,
      last_page: 2,
      links: [
        { url: url(1), label: '&laquo; Previous', active: false },
        { url: url(1), label: '1', active: false },
        { url: url(2), label: '2', active: true },
        { url: null, label: 'Next &raquo;', active: false },
      ],
      path,
      per_page: 3,
      to: 5,
      total: 5,
    });
    // The links are followable as they are.
    const followed = await t.http().get(second.links.prev.slice(base.length)).set(sk(tenant));
    expect(expectStatus(followed, 200)).toEqual(first);
  });

  it('filters by status, answers an empty page past the end, and validates the query', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'filtered');
    const rejected = await content(t, tenant, 'filtered', { title: 'No' });
    await submit(t, tenant, 'filtered', rejected.slug);
    expectStatus(await admin(t, tenant, rejected.slug, 'reject', { reason: 'x' }), 200);
    const list = expectStatus(await t.http().get('/v1/tenant/admin/plus/approvals').query({ status: 'rejected' }).set(sk(tenant)), 200);
    expect(list.data.map((c: { id: string }) => c.id)).toEqual([rejected.id]);
    expect(list.meta).toMatchObject({ total: 1, per_page: 15, last_page: 1, from: 1, to: 1 });
    const empty = expectStatus(await t.http().get('/v1/tenant/admin/plus/approvals').query({ page: 3 }).set(sk(tenant)), 200);
    expect(empty.data).toEqual([]);
    expect(empty.meta).toMatchObject({ current_page: 3, from: null, to: null, total: 0, last_page: 1 });
    expect(empty.links.next).toBeNull();
    expect(empty.links.prev).toMatch(/page=1$/);
    for (const query of [{ status: 'lost' }, { page: 0 }, { per_page: 101 }]) {
      expectError(await t.http().get('/v1/tenant/admin/plus/approvals').query(query).set(sk(tenant)), 422, 'validation_failed');
    }
  });

  it('shortens a long row of page links with gaps', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'long');
    for (let i = 0; i < 12; i++) await submit(t, tenant, 'long', (await content(t, tenant, 'long', { title: `L${i}` })).slug);
    const res = expectStatus(await t.http().get('/v1/tenant/admin/plus/approvals').query({ per_page: 1, page: 6 }).set(sk(tenant)), 200);
    expect(res.meta.links.map((l: { label: string }) => l.label)).toEqual(['&laquo; Previous', '1', '2', '...', '4', '5', '6', '7', '8', '...', '11', '12', 'Next &raquo;']);
    expect(res.meta.links.find((l: { label: string }) => l.label === '...').url).toBeNull();
  });
});
