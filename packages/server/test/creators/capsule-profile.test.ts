import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { creatorOrg, header, orgMember, preparingAsset, readyAsset, signIn, sk, staffMember } from './creators-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });
const path = (handle: string) => `/v1/creator/orgs/${handle}/capsule-profile`;

describe('the capsule profile', () => {
  it('answers the spec\'s profile: `profile` is the bio, or [] without one', async () => {
    const tenant = await t.tenant();
    const org = await creatorOrg(t, tenant, 'sauti.sol', 'Sauti Sol');
    const first = expectStatus(await t.http().get(path('sauti.sol')).set(sk(tenant)), 200).data;
    expect(first).toMatchObject({
      organization_id: org.id,
      name: 'Sauti Sol',
      handle: 'sauti.sol',
      avatar_url: null,
      cover_url: null,
      profile: [],
      is_public: false,
      public_capsule_url: expect.stringMatching(/\/v1\/public\/capsules\/sauti\.sol$/),
    });
    expect(first.capsule_id).toMatch(/^cap_/);
    expect(first.readiness.score).toBe(30);
    // The capsule id stays the same on every read.
    expect(expectStatus(await t.http().get(path('sauti.sol')).set(sk(tenant)), 200).data.capsule_id).toBe(first.capsule_id);
    const patched = expectStatus(
      await t.http().patch(path('sauti.sol')).set(sk(tenant)).send({
        tagline: 'Afro-pop from Nairobi',
        bio: 'Four friends who sing together.',
        creator_type: 'band',
        category: 'music',
        hero_media: ['https://images.example.com/hero.jpg'],
        links: ['https://instagram.com/sautisol'],
        external_storefront_url: 'https://shop.example.com',
        join_enabled: true,
        subscription_enabled: false,
        is_public: true,
      }),
      200,
    ).data;
    expect(patched).toMatchObject({ profile: 'Four friends who sing together.', is_public: true, tagline: 'Afro-pop from Nairobi', join_enabled: true });
    // Fields not sent stay; `null` clears.
    const cleared = expectStatus(await t.http().patch(path('sauti.sol')).set(sk(tenant)).send({ bio: null, is_public: null }), 200).data;
    expect(cleared).toMatchObject({ profile: [], is_public: false, tagline: 'Afro-pop from Nairobi', links: ['https://instagram.com/sautisol'] });
  });

  it('takes an avatar and a cover from a ready asset with a public playback id, or an https URL', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'pictures');
    const asset = await readyAsset(t, tenant);
    const withAsset = expectStatus(await t.http().patch(path('pictures')).set(sk(tenant)).send({ avatar_asset: asset, cover_asset: 'https://images.example.com/c.jpg' }), 200).data;
    expect(withAsset).toMatchObject({ avatar_asset: asset, cover_asset: null, cover_url: 'https://images.example.com/c.jpg' });
    expect(withAsset.avatar_url).toMatch(/^http.*pb_/);
    const refused = [
      [{ avatar_asset: 'http://images.example.com/a.jpg' }, 'avatar_asset'],
      [{ avatar_asset: 'ast_00000000000000000000000000' }, 'avatar_asset'],
      [{ cover_asset: await preparingAsset(t, tenant) }, 'cover_asset'],
      [{ cover_asset: await readyAsset(t, tenant, 'signed') }, 'cover_asset'],
    ] as const;
    for (const [body, param] of refused) expectError(await t.http().patch(path('pictures')).set(sk(tenant)).send(body), 422, 'validation_failed', { param });
    // Another tenant's asset is unknown here.
    const other = await t.tenant('Other');
    expectError(await t.http().patch(path('pictures')).set(sk(tenant)).send({ cover_asset: await readyAsset(t, other) }), 422, 'validation_failed', { param: 'cover_asset' });
    const cleared = expectStatus(await t.http().patch(path('pictures')).set(sk(tenant)).send({ avatar_asset: null }), 200).data;
    expect(cleared).toMatchObject({ avatar_asset: null, avatar_url: null });
  });

  it('refuses fields beyond the spec\'s limits with 422 and the param', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'limits');
    const cases: Array<[object, string]> = [
      [{ tagline: 'x'.repeat(161) }, 'tagline'],
      [{ creator_type: 'x'.repeat(81) }, 'creator_type'],
      [{ category: 'x'.repeat(81) }, 'category'],
      [{ external_storefront_url: 'not a uri' }, 'external_storefront_url'],
      [{ join_enabled: 'yes' }, 'join_enabled'],
      [{ is_public: 1 }, 'is_public'],
      [{ links: 'https://example.com' }, 'links'],
      [{ hero_media: [1] }, 'hero_media.0'],
      [{ creator_type: null }, 'creator_type'],
    ];
    for (const [body, param] of cases) expectError(await t.http().patch(path('limits')).set(sk(tenant)).send(body), 422, 'validation_failed', { param });
    expectStatus(await t.http().patch(path('limits')).set(sk(tenant)).send({ tagline: 'x'.repeat(160) }), 200);
  });

  it('answers 401 without a token, 404 for an unknown handle or another kind of organization', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'known');
    expectError(await t.http().get(path('known')).set(header(tenant)), 401, 'api_key_missing');
    expectError(await t.http().get(path('unknown')).set(sk(tenant)), 404, 'resource_not_found');
    expectStatus(await t.http().post('/v1/organizations').set(sk(tenant)).send({ name: 'Venue', handle: 'a.venue', kind: 'venue' }), 201);
    expectError(await t.http().get(path('a.venue')).set(sk(tenant)), 404, 'resource_not_found');
    expectError(await t.http().get('/v1/creator/orgs/a.venue/readiness').set(sk(tenant)), 404, 'resource_not_found');
  });
});

describe('the role matrix for creators', () => {
  it('lets owners, admins and managers of the organization in; other roles 403; non-members and staff 404', async () => {
    const tenant = await t.tenant();
    const org = await creatorOrg(t, tenant, 'matrix');
    const other = await creatorOrg(t, tenant, 'someone.else');
    const routes = [
      (auth: Record<string, string>) => t.http().get(path('matrix')).set(auth).set(header(tenant)),
      (auth: Record<string, string>) => t.http().get('/v1/creator/orgs/matrix/readiness').set(auth).set(header(tenant)),
      (auth: Record<string, string>) => t.http().get('/v1/creator/orgs/matrix/contents').set(auth).set(header(tenant)),
    ];
    const writes = [
      (auth: Record<string, string>) => t.http().patch(path('matrix')).set(auth).set(header(tenant)).send({ tagline: 'hi' }),
      (auth: Record<string, string>) => t.http().post('/v1/creator/orgs/matrix/contents').set(auth).set(header(tenant)).send({ type: 'post', title: 'Hello' }),
    ];
    for (const role of ['owner', 'admin', 'manager']) {
      const member = await orgMember(t, tenant, org.id, role);
      for (const call of [...routes, ...writes]) expect((await call(member.auth)).status, role).toBeLessThan(300);
    }
    for (const role of ['finance', 'checkin', 'viewer']) {
      const member = await orgMember(t, tenant, org.id, role);
      for (const call of [...routes, ...writes]) {
        const error = expectError(await call(member.auth), 403, 'missing_permission');
        expect(error.details).toMatchObject({ required_permission: expect.stringMatching(/^capsules:/) });
      }
    }
    // Someone else's owner, a customer, and tenant staff who hold no role in the organization: it is not theirs.
    const strangers = [await orgMember(t, tenant, other.id, 'owner'), await signIn(t, tenant), await staffMember(t, tenant, 'owner')];
    for (const stranger of strangers) for (const call of [...routes, ...writes]) expectError(await call(stranger.auth), 404, 'resource_not_found');
    // A person of another tenant is refused before anything is looked up.
    const elsewhere = await t.tenant('Elsewhere');
    const outsider = await orgMember(t, elsewhere, (await creatorOrg(t, elsewhere, 'matrix')).id, 'owner');
    expectError(await routes[0]!(outsider.auth), 401, 'tenant_mismatch');
    expectStatus(await t.http().get(path('matrix')).set(bearer(outsider.token)), 200);
  });
});
