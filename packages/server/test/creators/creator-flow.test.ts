import { expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { advance, newPhone, signInByPhone } from '../identity/identity-fixtures';
import { pk, readyAsset, sk } from './creators-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

it('a creator fills in a capsule, watches readiness rise, submits a drop, and sees it published once a tenant admin approves', async () => {
  const tenant = await t.tenant('Flow');
  const tenantHeader = { 'X-Tenant-Code': tenant.tenant.code };
  // The tenant makes the creator organization and invites its owner; the owner signs in with a code.
  const org = expectStatus(await t.http().post('/v1/organizations').set(sk(tenant)).send({ name: 'Wanjiku Muse', handle: 'wanjiku', kind: 'creator' }), 201).data;
  const ownerPhone = newPhone();
  expectStatus(await t.http().post(`/v1/organizations/${org.id}/members`).set(sk(tenant)).send({ phone: ownerPhone, role: 'owner' }), 201);
  advance(t, 61_000);
  const owner = bearer((await signInByPhone(t, tenant, ownerPhone)).access_token);
  const creator = (method: 'get' | 'patch' | 'post', path: string) => t.http()[method](`/v1/creator/orgs/wanjiku${path}`).set(owner).set(tenantHeader);

  const scores: number[] = [expectStatus(await creator('get', '/readiness'), 200).data.score];
  const steps = [
    { bio: 'Poet and singer from Nakuru, writing about home.' },
    { avatar_asset: await readyAsset(t, tenant) },
    { links: ['https://www.youtube.com/@wanjiku'] },
    { join_enabled: true, is_public: true },
    { cover_asset: 'https://images.example.com/wanjiku-cover.jpg' },
  ];
  for (const step of steps) {
    expectStatus(await creator('patch', '/capsule-profile').send(step), 200);
    scores.push(expectStatus(await creator('get', '/readiness'), 200).data.score);
  }
  expect(scores).toEqual([40, 55, 70, 80, 90, 100]);
  expect(expectStatus(await creator('get', '/readiness'), 200).data).toMatchObject({ status: 'strong', share_blockers: [] });

  const drop = expectStatus(
    await creator('post', '/contents').send({ type: 'drop', title: 'Home, a live session', trailer: await readyAsset(t, tenant), items: [await readyAsset(t, tenant)] }),
    201,
  ).data;
  expect(expectStatus(await creator('post', `/contents/${drop.slug}/submit`), 200).data.status).toBe('pending_review');

  // A tenant admin signs in, finds it in the queue and approves it.
  const staffPhone = newPhone();
  expectStatus(await t.http().post('/v1/members').set(sk(tenant)).send({ phone: staffPhone, role: 'admin' }), 201);
  advance(t, 61_000);
  const staff = bearer((await signInByPhone(t, tenant, staffPhone)).access_token);
  const queue = expectStatus(await t.http().get('/v1/tenant/admin/plus/approvals').set(staff).set(tenantHeader), 200);
  expect(queue.data.map((c: { slug: string }) => c.slug)).toEqual([drop.slug]);
  expect(expectStatus(await t.http().post(`/v1/tenant/admin/plus/approvals/${drop.slug}/approve`).set(staff).set(tenantHeader).send({}), 200).data.status).toBe('published');

  // The creator sees it published and was told; the public sees it on the capsule.
  expect(expectStatus(await creator('get', `/contents/${drop.slug}`), 200).data.status).toBe('published');
  const told = expectStatus(await t.http().get('/v1/messages').query({ to: ownerPhone, template: 'content_approved' }).set(sk(tenant)), 200).data;
  expect(told).toHaveLength(1);
  const capsule = expectStatus(await t.http().get('/v1/public/capsules/wanjiku').set(pk(tenant)), 200).data;
  expect(capsule.featured.drops.map((d: { id: string }) => d.id)).toEqual([drop.id]);
  expect(capsule.stats).toMatchObject({ drops_count: 1, audience_count: 0 });
  expect(expectStatus(await t.http().get('/v1/plus/contents').set(pk(tenant)), 200).data.map((d: { id: string }) => d.id)).toEqual([drop.id]);
});
