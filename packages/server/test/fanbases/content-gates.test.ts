import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { contentIn, readyAsset } from '../creators/creators-fixtures';
import { creatorFanbase, creatorOrg, customerTokenAuth, pk, signIn, sk, tier } from './fanbases-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

type Shown = { id: string; locked: boolean; description: string | null; trailer: unknown; items: Array<{ id: string; playback_ids: unknown[] }> | null };
const listed = async (auth: Record<string, string>) => {
  const rows = expectStatus(await t.http().get('/v1/plus/contents').query({ organization: 'gate.one' }).set(auth), 200).data as Shown[];
  return new Map(rows.map((r) => [r.id, r]));
};

describe('content gated to members and tiers', () => {
  it('is locked, without description, trailer or items, to all but the entitled; members see its items', async () => {
    const tenant = await t.tenant();
    const { fanbase } = await creatorFanbase(t, tenant, 'gate.one');
    const gold = await tier(t, tenant, fanbase.id, { name: 'Gold', price: 50000, interval: 'month' });
    const silver = await tier(t, tenant, fanbase.id, { name: 'Silver', price: 20000, interval: 'month' });
    const asset = await readyAsset(t, tenant);
    const body = { trailer: asset, items: [asset], description: 'The whole post.' };
    const open = await contentIn(t, tenant, 'gate.one', 'published', { ...body, title: 'Open' });
    const members = await contentIn(t, tenant, 'gate.one', 'published', { ...body, title: 'Members', gate: { type: 'members' } });
    const golden = await contentIn(t, tenant, 'gate.one', 'published', { ...body, title: 'Gold only', type: 'post', gate: { type: 'tiers', tiers: [gold.id] } });
    const organizerView = expectStatus(await t.http().get(`/v1/creator/orgs/gate.one/contents/${golden.id}`).set(sk(tenant)), 200).data;
    expect(organizerView.gate).toEqual({ type: 'tiers', tiers: [gold.id] });

    const lockedShape = { locked: true, description: null, trailer: null, items: null };
    const anonymous = await listed(pk(tenant));
    expect(anonymous.get(open.id)).toMatchObject({ locked: false, gate: null, description: 'The whole post.', items: null });
    expect(anonymous.get(open.id)!.trailer).not.toBeNull();
    expect(anonymous.get(members.id)).toMatchObject({ ...lockedShape, gate: { type: 'members', tiers: [] }, items_count: 1 });
    expect(anonymous.get(golden.id)).toMatchObject(lockedShape);
    // A detail read and the capsule's featured content are locked alike.
    expect(expectStatus(await t.http().get(`/v1/plus/contents/${members.slug}`).set(pk(tenant)), 200).data).toMatchObject(lockedShape);
    const capsule = expectStatus(await t.http().get('/v1/public/capsules/gate.one').set(pk(tenant)), 200).data;
    expect(capsule.featured.drops.find((d: Shown) => d.id === members.id)).toMatchObject(lockedShape);
    expect(capsule.featured.latest_post).toMatchObject({ id: golden.id, ...lockedShape });

    // A signed-in stranger is locked out too; once a member, the members' content opens with its items.
    const fan = await signIn(t, tenant);
    expect((await listed(fan.auth)).get(members.id)).toMatchObject(lockedShape);
    expectStatus(await t.http().post('/v1/public/fanbases/gate.one/join').set(fan.auth), 201);
    const asMember = await listed(fan.auth);
    expect(asMember.get(members.id)).toMatchObject({ locked: false, description: 'The whole post.' });
    expect(asMember.get(members.id)!.items).toEqual([expect.objectContaining({ id: asset, playback_ids: [expect.objectContaining({ policy: 'public' })] })]);
    expect(asMember.get(golden.id)).toMatchObject(lockedShape);
    // The same customer behind a publishable key and a customer token.
    expect((await listed(await customerTokenAuth(t, tenant, fan.token))).get(members.id)!.locked).toBe(false);

    // A comp member holding Gold opens the Gold content; Silver does not; leaving locks everything again.
    const goldFan = await signIn(t, tenant);
    expectStatus(await t.http().post(`/v1/fanbases/${fanbase.id}/members`).set(sk(tenant)).send({ customer: goldFan.customer, tier: gold.id }), 201);
    expect(expectStatus(await t.http().get(`/v1/plus/contents/${golden.id}`).set(goldFan.auth), 200).data).toMatchObject({ locked: false, description: 'The whole post.' });
    const silverFan = await signIn(t, tenant);
    expectStatus(await t.http().post(`/v1/fanbases/${fanbase.id}/members`).set(sk(tenant)).send({ customer: silverFan.customer, tier: silver.id }), 201);
    expect(expectStatus(await t.http().get(`/v1/plus/contents/${golden.id}`).set(silverFan.auth), 200).data).toMatchObject(lockedShape);
    const capsuleOfGold = expectStatus(await t.http().get('/v1/public/capsules/gate.one').set(goldFan.auth), 200).data;
    expect(capsuleOfGold.featured.latest_post).toMatchObject({ id: golden.id, locked: false });
    expectStatus(await t.http().delete('/v1/public/fanbases/gate.one/join').set(fan.auth), 200);
    expect((await listed(fan.auth)).get(members.id)).toMatchObject(lockedShape);
  });

  it('refuses gates without a fanbase, unknown tiers and mismatched shapes', async () => {
    const tenant = await t.tenant();
    const { fanbase } = await creatorFanbase(t, tenant, 'gate.two');
    const other = await creatorFanbase(t, tenant, 'gate.other');
    const foreign = await tier(t, tenant, other.fanbase.id, { name: 'Theirs', price: 100, interval: 'month' });
    const own = await tier(t, tenant, fanbase.id, { name: 'Ours', price: 100, interval: 'month' });
    await creatorOrg(t, tenant, 'gate.none');
    const make = (handle: string, gate: unknown) => t.http().post(`/v1/creator/orgs/${handle}/contents`).set(sk(tenant)).send({ type: 'drop', title: 'Gated', gate });
    expect(expectError(await make('gate.two', { type: 'tiers', tiers: [own.id, foreign.id] }), 422, 'validation_failed').param).toBe('gate.tiers.1');
    expect(expectError(await make('gate.two', { type: 'tiers', tiers: [] }), 422, 'validation_failed').param).toBe('gate.tiers');
    expect(expectError(await make('gate.two', { type: 'members', tiers: [own.id] }), 422, 'validation_failed').param).toBe('gate.tiers');
    expect(expectError(await make('gate.none', { type: 'members' }), 422, 'validation_failed').param).toBe('gate');
    const made = expectStatus(await make('gate.two', { type: 'tiers', tiers: [own.id, own.id] }), 201).data;
    expect(made.gate).toEqual({ type: 'tiers', tiers: [own.id] });
    const opened = expectStatus(await t.http().patch(`/v1/creator/orgs/gate.two/contents/${made.id}`).set(sk(tenant)).send({ gate: null }), 200).data;
    expect(opened.gate).toBeNull();
  });
});
