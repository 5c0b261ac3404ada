import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { contentIn, creatorOrg, header, makePublic, pk, readyAsset, signIn, sk } from './creators-fixtures';
import { makeEvent, makePublishedEvent } from '../ticketing/catalogue-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

describe('the public capsule', () => {
  it('answers the whole capsule, its stats counted from rows', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'whole', 'Whole Capsule');
    const avatar = await readyAsset(t, tenant);
    const profile = expectStatus(
      await t.http().patch('/v1/creator/orgs/whole/capsule-profile').set(sk(tenant)).send({
        tagline: 'All of it',
        bio: 'A capsule with everything filled in.',
        creator_type: 'musician',
        category: 'music',
        hero_media: ['https://images.example.com/hero.jpg'],
        links: ['https://www.instagram.com/whole', 'https://example.org/about', 'not a link'],
        external_storefront_url: 'https://shop.example.com',
        join_enabled: true,
        is_public: true,
        avatar_asset: avatar,
      }),
      200,
    ).data;
    const drop1 = await contentIn(t, tenant, 'whole', 'published', { title: 'Drop one' });
    const drop2 = await contentIn(t, tenant, 'whole', 'published', { title: 'Drop two' });
    await contentIn(t, tenant, 'whole', 'published', { title: 'A video', type: 'video' });
    await contentIn(t, tenant, 'whole', 'published', { title: 'Old post', type: 'post' });
    const post = await contentIn(t, tenant, 'whole', 'published', { title: 'New post', type: 'post' });
    await contentIn(t, tenant, 'whole', 'published', { title: 'Unlisted drop', visibility: 'unlisted' });
    await contentIn(t, tenant, 'whole', 'pending_review', { title: 'Waiting drop' });
    await contentIn(t, tenant, 'whole', 'draft', { title: 'Draft post', type: 'post' });
    const fan = await signIn(t, tenant);
    expectStatus(await t.http().post('/v1/public/capsules/whole/follow').set(fan.auth), 200);

    const capsule = expectStatus(await t.http().get('/v1/public/capsules/whole').set(pk(tenant)), 200).data;
    expect(capsule.capsule).toEqual({
      id: profile.capsule_id,
      name: 'Whole Capsule',
      slug: 'whole',
      handle: 'whole',
      bio: 'A capsule with everything filled in.',
      tagline: 'All of it',
      creator_type: 'musician',
      category: 'music',
      avatar_url: profile.avatar_url,
      cover_url: null,
      hero_media: ['https://images.example.com/hero.jpg'],
      public_url: profile.public_capsule_url,
      fanbase: null,
    });
    expect(capsule.stats).toEqual({ audience_count: 1, drops_count: 2, videos_count: 1, live_count: 0, posts_count: 2, merch_count: 0 });
    expect(capsule.viewer_state).toEqual({ is_following: false, is_subscribed: false, subscription_plan_id: null, joined_at: null });
    expect(capsule.featured.drops.map((d: { id: string }) => d.id)).toEqual([drop2.id, drop1.id]);
    expect(capsule.featured.latest_post.id).toBe(post.id);
    expect(capsule.featured.upcoming_live).toEqual([]);
    expect(capsule.featured.merch).toBeNull();
    expect(capsule.links).toEqual([
      { type: 'instagram', label: 'Instagram', url: 'https://www.instagram.com/whole' },
      { type: 'website', label: 'example.org', url: 'https://example.org/about' },
    ]);
    expect(capsule.availability).toEqual({
      has_public_drops: true,
      has_public_posts: true,
      has_merch: false,
      external_storefront_url: 'https://shop.example.com',
      // Joining needs a fanbase as well as the switch (the fanbases tests cover one).
      join_enabled: false,
      subscription_enabled: false,
    });
    expect(capsule.social_proof).toEqual({ audience_count: 1 });
  });

  it("features the capsule's published events with a live stream that are still to come, soonest first", async () => {
    const tenant = await t.tenant();
    const org = await creatorOrg(t, tenant, 'live.shows');
    await makePublic(t, tenant, 'live.shows');
    const stream = expectStatus(await t.http().post('/v1/streams/live_streams').set(sk(tenant)).send({}), 201).data;
    const inDays = (days: number, hours = 0) => new Date(Date.now() + days * 86_400_000 + hours * 3_600_000).toISOString();
    const later = await makePublishedEvent(t, tenant, org.id, { name: 'Later show', live_stream: stream.id, starts_at: inDays(9), ends_at: inDays(9, 2) });
    const sooner = await makePublishedEvent(t, tenant, org.id, { name: 'Sooner show', live_stream: stream.id, starts_at: inDays(2), ends_at: inDays(2, 2) });
    await makePublishedEvent(t, tenant, org.id, { name: 'No stream' });
    await makeEvent(t, tenant, org.id, { name: 'Draft show', live_stream: stream.id });

    const capsule = expectStatus(await t.http().get('/v1/public/capsules/live.shows').set(pk(tenant)), 200).data;
    expect(capsule.featured.upcoming_live.map((e: { id: string }) => e.id)).toEqual([sooner.event.id, later.event.id]);
    expect(capsule.featured.upcoming_live[0]).toMatchObject({ object: 'ticketed_event', name: 'Sooner show', has_live_stream: true });
    expect(capsule.stats.live_count).toBe(2);
  });

  it('shows an empty capsule with zero counts and nothing featured', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'empty');
    await makePublic(t, tenant, 'empty');
    const capsule = expectStatus(await t.http().get('/v1/public/capsules/empty').set(pk(tenant)), 200).data;
    expect(capsule.stats).toEqual({ audience_count: 0, drops_count: 0, videos_count: 0, live_count: 0, posts_count: 0, merch_count: 0 });
    expect(capsule.featured).toEqual({ drops: [], latest_post: null, upcoming_live: [], merch: null });
    expect(capsule.capsule).toMatchObject({ bio: null, tagline: null, avatar_url: null, hero_media: [] });
    expect(capsule.availability).toMatchObject({ has_public_drops: false, has_public_posts: false, external_storefront_url: null });
  });

  it('answers 404 to the public for a private capsule, an unknown handle, or an organization that is not a creator', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'private.one');
    expectError(await t.http().get('/v1/public/capsules/private.one').set(pk(tenant)), 404, 'resource_not_found');
    expectStatus(await t.http().get('/v1/creator/orgs/private.one/capsule-profile').set(sk(tenant)), 200);
    expectError(await t.http().get('/v1/public/capsules/private.one').set(pk(tenant)), 404, 'resource_not_found');
    expectError(await t.http().get('/v1/public/capsules/nobody').set(pk(tenant)), 404, 'resource_not_found');
    expectStatus(await t.http().post('/v1/organizations').set(sk(tenant)).send({ name: 'Brand', handle: 'a.brand', kind: 'brand' }), 201);
    expectError(await t.http().get('/v1/public/capsules/a.brand').set(pk(tenant)), 404, 'resource_not_found');
    const fan = await signIn(t, tenant);
    expectError(await t.http().post('/v1/public/capsules/private.one/follow').set(fan.auth), 404, 'resource_not_found');
  });

  it('reflects the signed-in customer in viewer_state, by access token or by customer token', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'viewed');
    await makePublic(t, tenant, 'viewed');
    const fan = await signIn(t, tenant);
    const before = expectStatus(await t.http().get('/v1/public/capsules/viewed').set(fan.auth), 200).data;
    expect(before.viewer_state.is_following).toBe(false);
    const followed = expectStatus(await t.http().post('/v1/public/capsules/viewed/follow').set(fan.auth), 200).data;
    expect(followed).toEqual({ is_following: true, audience_count: 1 });
    expect(expectStatus(await t.http().get('/v1/public/capsules/viewed').set(fan.auth), 200).data.viewer_state.is_following).toBe(true);
    // Through the publishable key with the person's customer token: the same customer.
    const issued = expectStatus(await t.http().post('/auth/v1/customer_token').set(pk(tenant)).set(fan.auth), 200).data;
    const viaKey = expectStatus(await t.http().get('/v1/public/capsules/viewed').set(pk(tenant)).set(bearer(issued.token)), 200).data;
    expect(viaKey.viewer_state.is_following).toBe(true);
    expect(expectStatus(await t.http().delete('/v1/public/capsules/viewed/follow').set(pk(tenant)).set(bearer(issued.token)), 200).data).toEqual({
      is_following: false,
      audience_count: 0,
    });
    // Another customer and an anonymous reader see no following; a bad customer token is refused.
    const other = await signIn(t, tenant);
    expect(expectStatus(await t.http().get('/v1/public/capsules/viewed').set(other.auth), 200).data.viewer_state.is_following).toBe(false);
    expectError(await t.http().get('/v1/public/capsules/viewed').set(pk(tenant)).set(bearer('eyJhbGciOiJIUzI1NiJ9.e30.x')), 401, 'invalid_customer_token');
    // Following needs a signed-in customer.
    expectError(await t.http().post('/v1/public/capsules/viewed/follow').set(pk(tenant)), 401, 'invalid_customer_token');
    expectError(await t.http().post('/v1/public/capsules/viewed/follow').set(header(tenant)), 401, 'api_key_missing');
  });
});

describe('following', () => {
  it('counts every customer once under concurrent follows and unfollows', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'popular');
    await makePublic(t, tenant, 'popular');
    const fans = await Promise.all(Array.from({ length: 8 }, () => signIn(t, tenant)));
    // Each fan follows three times at once: eight followers, not twenty-four.
    const follows = await Promise.all(fans.flatMap((fan) => [1, 2, 3].map(() => t.http().post('/v1/public/capsules/popular/follow').set(fan.auth))));
    for (const res of follows) expect(expectStatus(res, 200).data.is_following).toBe(true);
    const count = async () => expectStatus(await t.http().get('/v1/public/capsules/popular').set(pk(tenant)), 200).data.stats.audience_count;
    expect(await count()).toBe(8);
    // Half unfollow (twice each, at once) while the others follow again.
    const mixed = await Promise.all([
      ...fans.slice(0, 4).flatMap((fan) => [1, 2].map(() => t.http().delete('/v1/public/capsules/popular/follow').set(fan.auth))),
      ...fans.slice(4).map((fan) => t.http().post('/v1/public/capsules/popular/follow').set(fan.auth)),
    ]);
    for (const res of mixed) expectStatus(res, 200);
    expect(await count()).toBe(4);
    const last = expectStatus(await t.http().delete('/v1/public/capsules/popular/follow').set(fans[7]!.auth), 200).data;
    expect(last).toEqual({ is_following: false, audience_count: 3 });
    // Unfollowing what one does not follow changes nothing.
    expect(expectStatus(await t.http().delete('/v1/public/capsules/popular/follow').set(fans[0]!.auth), 200).data).toEqual({ is_following: false, audience_count: 3 });
  });
});
