import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { creatorOrg, orgMember, readyAsset, sk, type Tenant } from './creators-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

const readiness = async (tenant: Tenant, handle: string) => expectStatus(await t.http().get(`/v1/creator/orgs/${handle}/readiness`).set(sk(tenant)), 200).data;
const patch = async (tenant: Tenant, handle: string, body: object) =>
  expectStatus(await t.http().patch(`/v1/creator/orgs/${handle}/capsule-profile`).set(sk(tenant)).send(body), 200).data;
const BIO_19 = 'A singer from Nairo';
const BIO_20 = 'A singer from Nairob';
const BIO_60 = 'A singer and songwriter from Nairobi, on tour across the coa';

describe('capsule readiness', () => {
  it('starts from the name and handle alone: 30, draft, blocked while not public', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'fresh.capsule');
    const r = await readiness(tenant, 'fresh.capsule');
    expect(r).toEqual({
      score: 30,
      status: 'draft',
      public_capsule_url: expect.stringMatching(/\/v1\/public\/capsules\/fresh\.capsule$/),
      completed_items: ['name', 'handle'],
      missing_items: ['avatar', 'bio', 'cover', 'contact', 'links', 'audience_enabled'],
      warnings: ['bio_short', 'cover_missing'],
      share_blockers: ['not_public'],
    });
  });

  it('weighs every item as the rules say, one at a time, and rises to 100', async () => {
    const tenant = await t.tenant();
    const org = await creatorOrg(t, tenant, 'step.by.step');
    const h = org.handle;
    await patch(tenant, h, { is_public: true });
    expect((await readiness(tenant, h)).score).toBe(30);
    // bio 15: at least 20 characters (19 is not enough); under 60 it is still a warning.
    await patch(tenant, h, { bio: BIO_19 });
    expect((await readiness(tenant, h)).completed_items).not.toContain('bio');
    await patch(tenant, h, { bio: BIO_20 });
    let r = await readiness(tenant, h);
    expect(r).toMatchObject({ score: 45, status: 'draft' });
    expect(r.warnings).toContain('bio_short');
    await patch(tenant, h, { bio: BIO_60 });
    expect((await readiness(tenant, h)).warnings).not.toContain('bio_short');
    // avatar 15: an https URL.
    await patch(tenant, h, { avatar_asset: 'https://images.example.com/me.jpg' });
    expect(await readiness(tenant, h)).toMatchObject({ score: 60, status: 'shareable' });
    // links 10: at least one valid URL (text that is not one does not count).
    await patch(tenant, h, { links: ['my instagram'] });
    expect((await readiness(tenant, h)).score).toBe(60);
    await patch(tenant, h, { links: ['my instagram', 'https://instagram.com/stepbystep'] });
    expect((await readiness(tenant, h)).score).toBe(70);
    // audience_enabled 10: joining or subscriptions, either one.
    await patch(tenant, h, { join_enabled: true });
    expect(await readiness(tenant, h)).toMatchObject({ score: 80, status: 'strong' });
    await patch(tenant, h, { join_enabled: false, subscription_enabled: true });
    expect((await readiness(tenant, h)).completed_items).toContain('audience_enabled');
    // cover 10: a ready asset with a public playback id.
    await patch(tenant, h, { cover_asset: await readyAsset(t, tenant) });
    r = await readiness(tenant, h);
    expect(r.score).toBe(90);
    expect(r.warnings).toEqual([]);
    // contact 10: a member's verified phone; an invitation alone is not verified.
    const invited = await t.http().post(`/v1/organizations/${org.id}/members`).set(sk(tenant)).send({ email: 'later@example.test', role: 'owner' });
    expectStatus(invited, 201);
    expect((await readiness(tenant, h)).missing_items).toEqual(['contact']);
    await orgMember(t, tenant, org.id, 'manager');
    expect(await readiness(tenant, h)).toMatchObject({ score: 100, status: 'strong', missing_items: [], share_blockers: [] });
  });

  it('puts the status at the thresholds: 50 shareable, 75 shareable, 80 strong, and draft below 50', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'thresholds');
    await patch(tenant, 'thresholds', { is_public: true, bio: BIO_20 });
    expect(await readiness(tenant, 'thresholds')).toMatchObject({ score: 45, status: 'draft' });
    await patch(tenant, 'thresholds', { bio: null, links: ['https://example.com'], avatar_asset: null, cover_asset: 'https://images.example.com/c.jpg' });
    expect(await readiness(tenant, 'thresholds')).toMatchObject({ score: 50, status: 'shareable' });
    await patch(tenant, 'thresholds', { bio: BIO_20, join_enabled: true });
    expect(await readiness(tenant, 'thresholds')).toMatchObject({ score: 75, status: 'shareable' });
    await patch(tenant, 'thresholds', { cover_asset: null, avatar_asset: 'https://images.example.com/a.jpg' });
    expect(await readiness(tenant, 'thresholds')).toMatchObject({ score: 80, status: 'strong' });
  });

  it('keeps any share blocker at draft whatever the score: not public, or a blank name', async () => {
    const tenant = await t.tenant();
    const org = await creatorOrg(t, tenant, 'blocked');
    await patch(tenant, 'blocked', {
      bio: BIO_60,
      avatar_asset: 'https://images.example.com/a.jpg',
      cover_asset: 'https://images.example.com/c.jpg',
      links: ['https://example.com'],
      join_enabled: true,
    });
    expect(await readiness(tenant, 'blocked')).toMatchObject({ score: 90, status: 'draft', share_blockers: ['not_public'] });
    await patch(tenant, 'blocked', { is_public: true });
    expect(await readiness(tenant, 'blocked')).toMatchObject({ status: 'strong', share_blockers: [] });
    expectStatus(await t.http().patch(`/v1/organizations/${org.id}`).set(sk(tenant)).send({ name: '   ' }), 200);
    const r = await readiness(tenant, 'blocked');
    expect(r).toMatchObject({ score: 75, status: 'draft', share_blockers: ['name_missing'] });
    expect(r.missing_items).toContain('name');
  });

  it('warns of a storefront that is not https, and stops when it is', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'storefront');
    await patch(tenant, 'storefront', { external_storefront_url: 'http://shop.example.com' });
    expect((await readiness(tenant, 'storefront')).warnings).toEqual(['bio_short', 'cover_missing', 'storefront_not_https']);
    await patch(tenant, 'storefront', { external_storefront_url: 'https://shop.example.com' });
    expect((await readiness(tenant, 'storefront')).warnings).toEqual(['bio_short', 'cover_missing']);
  });

  it('is the same object inside the profile', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'inside');
    const profile = await patch(tenant, 'inside', { bio: BIO_20 });
    expect(profile.readiness).toEqual(await readiness(tenant, 'inside'));
  });
});
