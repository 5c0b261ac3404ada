import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { admin, content, creatorOrg, readyAsset, sk, submit } from './creators-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });
const base = (handle: string) => `/v1/creator/orgs/${handle}/contents`;

describe('creator content', () => {
  it('creates a draft with its fields, reads it by id or slug, and lists it', async () => {
    const tenant = await t.tenant();
    const org = await creatorOrg(t, tenant, 'maker');
    const trailer = await readyAsset(t, tenant);
    const item = await readyAsset(t, tenant);
    const made = expectStatus(
      await t.http().post(base('maker')).set(sk(tenant)).send({
        type: 'drop',
        title: 'Tour Diaries: Mombasa',
        description: 'Backstage at the coast.',
        trailer,
        items: [item],
        visibility: 'unlisted',
        price: { amount: 50000, currency: 'KES' },
      }),
      201,
    ).data;
    expect(made).toMatchObject({
      object: 'content',
      livemode: false,
      organization: org.id,
      type: 'drop',
      title: 'Tour Diaries: Mombasa',
      slug: 'tour-diaries-mombasa',
      trailer,
      items: [item],
      visibility: 'unlisted',
      price: { amount: 50000, currency: 'KES' },
      status: 'draft',
      submitted_at: null,
      published_at: null,
    });
    expect(made.id).toMatch(/^cnt_/);
    expect(expectStatus(await t.http().get(`${base('maker')}/${made.id}`).set(sk(tenant)), 200).data).toEqual(made);
    expect(expectStatus(await t.http().get(`${base('maker')}/${made.slug}`).set(sk(tenant)), 200).data).toEqual(made);
    // Defaults: public, free, no trailer or items.
    const post = await content(t, tenant, 'maker', { type: 'post', title: 'Hi' });
    expect(post).toMatchObject({ visibility: 'public', price: null, trailer: null, items: [], slug: 'hi-content' });
    const list = expectStatus(await t.http().get(base('maker')).set(sk(tenant)), 200);
    expect(list.data.map((c: { id: string }) => c.id)).toEqual([post.id, made.id]);
    expect(list.meta.pagination).toMatchObject({ has_more: false });
    await submit(t, tenant, 'maker', post.slug);
    expect(expectStatus(await t.http().get(base('maker')).query({ status: 'pending_review' }).set(sk(tenant)), 200).data.map((c: { id: string }) => c.id)).toEqual([post.id]);
  });

  it('keeps slugs unique in the environment: a chosen one taken is 409, a default one gets a suffix', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'one');
    await creatorOrg(t, tenant, 'two');
    await content(t, tenant, 'one', { title: 'Same Title', slug: 'same-title' });
    expectError(await t.http().post(base('two')).set(sk(tenant)).send({ type: 'drop', title: 'X', slug: 'same-title' }), 409, 'slug_taken', { param: 'slug' });
    const suffixed = await content(t, tenant, 'two', { title: 'Same Title' });
    expect(suffixed.slug).toMatch(/^same-title-[0-9a-f]{5}$/);
    expectError(await t.http().patch(`${base('two')}/${suffixed.slug}`).set(sk(tenant)).send({ slug: 'same-title' }), 409, 'slug_taken');
    // The live environment has its own slugs.
    expectStatus(await t.http().post('/v1/organizations').set({ authorization: `Bearer ${tenant.keys.live.secret}` }).send({ name: 'L', handle: 'one', kind: 'creator' }), 201);
    expectStatus(await t.http().post(base('one')).set({ authorization: `Bearer ${tenant.keys.live.secret}` }).send({ type: 'post', title: 'x', slug: 'same-title' }), 201);
  });

  it('refuses bad fields with 422 and the param, and assets that are not this environment\'s', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'strict');
    const other = await t.tenant('Other');
    const cases: Array<[object, string]> = [
      [{ type: 'album', title: 'x' }, 'type'],
      [{ type: 'drop', title: '' }, 'title'],
      [{ type: 'drop', title: 'x'.repeat(201) }, 'title'],
      [{ type: 'drop', title: 'x', slug: 'Not A Slug' }, 'slug'],
      [{ type: 'drop', title: 'x', visibility: 'secret' }, 'visibility'],
      [{ type: 'drop', title: 'x', price: { amount: -1, currency: 'KES' } }, 'price.amount'],
      [{ type: 'drop', title: 'x', price: { amount: 10, currency: 'kes' } }, 'price.currency'],
      [{ type: 'drop', title: 'x', trailer: 'ls_00000000000000000000000000' }, 'trailer'],
      [{ type: 'drop', title: 'x', trailer: 'ast_00000000000000000000000000' }, 'trailer'],
      [{ type: 'drop', title: 'x', items: [await readyAsset(t, tenant), await readyAsset(t, other)] }, 'items.1'],
    ];
    for (const [body, param] of cases) expectError(await t.http().post(base('strict')).set(sk(tenant)).send(body), 422, 'validation_failed', { param });
    expectError(await t.http().get(`${base('strict')}/cnt_00000000000000000000000000`).set(sk(tenant)), 404, 'resource_not_found');
    // Content is found only under its own organization.
    await creatorOrg(t, tenant, 'neighbour');
    const mine = await content(t, tenant, 'strict', { title: 'Mine' });
    expectError(await t.http().get(`${base('neighbour')}/${mine.id}`).set(sk(tenant)), 404, 'resource_not_found');
  });

  it('edits only in draft or changes_requested, submits only from there, and answers 409 INVALID_STATE otherwise', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'flow');
    const item = await content(t, tenant, 'flow', { title: 'Flow', items: [await readyAsset(t, tenant)] });
    const edited = expectStatus(await t.http().patch(`${base('flow')}/${item.slug}`).set(sk(tenant)).send({ title: 'Flow (edit)', price: null }), 200).data;
    expect(edited).toMatchObject({ title: 'Flow (edit)', slug: 'flow', status: 'draft' });
    const submitted = await submit(t, tenant, 'flow', item.slug);
    expect(submitted).toMatchObject({ status: 'pending_review' });
    expect(submitted.submitted_at).not.toBeNull();
    const refusedWhile = async (status: string) => {
      const patch = await t.http().patch(`${base('flow')}/${item.slug}`).set(sk(tenant)).send({ title: 'late' });
      expect(patch.status, status).toBe(409);
      expect(patch.body).toEqual({ error: { code: 'INVALID_STATE', message: `Content that is ${status} cannot be edited.` } });
      const again = await t.http().post(`${base('flow')}/${item.slug}/submit`).set(sk(tenant));
      expect(again.status, status).toBe(409);
      expect(again.body.error.code).toBe('INVALID_STATE');
    };
    await refusedWhile('pending_review');
    expectStatus(await admin(t, tenant, item.slug, 'request-changes', { message: 'Brighter trailer, please.' }), 200);
    // Resubmitting after changes were requested returns it to review.
    expectStatus(await t.http().patch(`${base('flow')}/${item.slug}`).set(sk(tenant)).send({ description: 'Brighter now' }), 200);
    expect(await submit(t, tenant, 'flow', item.slug)).toMatchObject({ status: 'pending_review', requested_items: [] });
    expectStatus(await admin(t, tenant, item.slug, 'approve'), 200);
    await refusedWhile('published');
    const rejected = await content(t, tenant, 'flow', { title: 'Rejected' });
    await submit(t, tenant, 'flow', rejected.slug);
    expectStatus(await admin(t, tenant, rejected.slug, 'reject', { reason: 'Not ours to host.' }), 200);
    expectError(await t.http().post(`${base('flow')}/${rejected.slug}/submit`).set(sk(tenant)), 409, 'INVALID_STATE');
  });
});
