import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { admin, content, creatorOrg, header, orgMember, preparingAsset, readyAsset, signIn, sk, staffMember, submit, type Tenant } from './creators-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

/** A creator with an owner reachable by email, and a drop of ready assets submitted for review. */
async function pending(tenant: Tenant, handle: string, opts: { items?: string[] } = {}) {
  const org = await creatorOrg(t, tenant, handle);
  expectStatus(await t.http().post(`/v1/organizations/${org.id}/members`).set(sk(tenant)).send({ email: `${handle}@example.test`, role: 'owner' }), 201);
  const trailer = await readyAsset(t, tenant);
  const items = opts.items ?? [await readyAsset(t, tenant)];
  const made = await content(t, tenant, handle, { title: `Drop of ${handle}`, trailer, items });
  await submit(t, tenant, handle, made.slug);
  return { org, slug: made.slug, id: made.id, trailer, items };
}

const detail = async (tenant: Tenant, slug: string) => expectStatus(await t.http().get(`/v1/tenant/admin/plus/approvals/${slug}`).set(sk(tenant)), 200).data;
const messagesAbout = async (tenant: Tenant, id: string) =>
  expectStatus(await t.http().get('/v1/messages').query({ related: id }).set(sk(tenant)), 200).data as Array<{ template: string; to: string; channel: string; body: string }>;
const eventTypes = async (tenant: Tenant, id: string) =>
  (expectStatus(await t.http().get('/v1/events').query({ type: 'creators.*', limit: 100 }).set(sk(tenant)), 200).data as Array<{ type: string; subject: string }>)
    .filter((e) => e.subject === id)
    .map((e) => e.type)
    .reverse();

describe('approving', () => {
  it('moves pending_review to approved and publishes at once, recording, messaging and emitting each step', async () => {
    const tenant = await t.tenant();
    const { org, slug, id, trailer, items } = await pending(tenant, 'approve.me');
    const staff = await staffMember(t, tenant, 'admin');
    const res = expectStatus(await t.http().post(`/v1/tenant/admin/plus/approvals/${slug}/approve`).set(staff.auth).set(header(tenant)).send({ note: 'Lovely.' }), 200).data;
    expect(res).toMatchObject({ id, status: 'published', review_note: 'Lovely.', organization: { id: org.id, handle: 'approve.me', name: 'Nyashinski' } });
    expect(res.approved_at).not.toBeNull();
    expect(res.published_at).not.toBeNull();
    expect(res.trailer).toMatchObject({ id: trailer, status: 'ready', duration: 30 });
    expect(res.items.map((i: { id: string }) => i.id)).toEqual(items);
    const history = (await detail(tenant, slug)).approvals;
    expect(history.map((h: { action: string }) => h.action)).toEqual(['submitted', 'approved', 'published']);
    expect(history[0].actor).toMatchObject({ type: 'api_key', id: expect.stringMatching(/^key_/) });
    expect(history[1]).toMatchObject({ actor: { type: 'user', id: staff.userId }, note: 'Lovely.' });
    expect(history[2].actor).toEqual({ type: 'user', id: staff.userId });
    const messages = await messagesAbout(tenant, id);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ template: 'content_approved', to: 'approve.me@example.test', channel: 'email' });
    expect(messages[0]!.body).toContain('Lovely.');
    expect(await eventTypes(tenant, id)).toEqual(['creators.content.submitted', 'creators.content.approved', 'creators.content.published']);
  });

  it('approves from changes_requested too', async () => {
    const tenant = await t.tenant();
    const { slug } = await pending(tenant, 'second.try');
    expectStatus(await admin(t, tenant, slug, 'request-changes', { message: 'Shorter, please.' }), 200);
    expect(expectStatus(await admin(t, tenant, slug, 'approve'), 200).data.status).toBe('published');
  });

  it('leaves the content approved when it cannot be published, and the publish fallback finishes the job once', async () => {
    const tenant = await t.tenant();
    const waiting = await preparingAsset(t, tenant);
    const { slug, id } = await pending(tenant, 'not.ready', { items: [waiting] });
    expect(expectStatus(await admin(t, tenant, slug, 'approve'), 200).data).toMatchObject({ status: 'approved', published_at: null });
    // Approving again, rejecting, or asking for changes is no longer possible.
    expectError(await admin(t, tenant, slug, 'approve'), 409, 'INVALID_STATE');
    expectError(await admin(t, tenant, slug, 'reject', { reason: 'x' }), 409, 'INVALID_STATE');
    expectError(await admin(t, tenant, slug, 'request-changes', { message: 'x' }), 409, 'INVALID_STATE');
    // Nor may the creator edit or submit it again.
    expectError(await t.http().patch(`/v1/creator/orgs/not.ready/contents/${slug}`).set(sk(tenant)).send({ title: 'late' }), 409, 'INVALID_STATE');
    expectError(await t.http().post(`/v1/creator/orgs/not.ready/contents/${slug}/submit`).set(sk(tenant)), 409, 'INVALID_STATE');
    const early = expectError(await admin(t, tenant, slug, 'publish'), 409, 'asset_not_ready');
    expect(early.details).toEqual({ assets: [waiting] });
    expectStatus(await t.http().post(`/v1/test_helpers/assets/${waiting}/simulate`).set(sk(tenant)).send({ event: 'ready', duration: 12 }), 200);
    const published = expectStatus(await admin(t, tenant, slug, 'publish'), 200).data;
    expect(published.status).toBe('published');
    // Publishing something already published answers it as it is.
    expect(expectStatus(await admin(t, tenant, slug, 'publish'), 200).data).toEqual(published);
    expect((await detail(tenant, slug)).approvals.map((h: { action: string }) => h.action)).toEqual(['submitted', 'approved', 'published']);
    expect((await messagesAbout(tenant, id)).map((m) => m.template).sort()).toEqual(['content_approved', 'content_published']);
  });
});

describe('rejecting and requesting changes', () => {
  it('rejects pending_review with the reason, told to the owner', async () => {
    const tenant = await t.tenant();
    const { slug, id } = await pending(tenant, 'rejected.one');
    const res = expectStatus(await admin(t, tenant, slug, 'reject', { reason: 'Contains someone else\'s music.' }), 200).data;
    expect(res).toMatchObject({ status: 'rejected', review_note: 'Contains someone else\'s music.' });
    expect(res.rejected_at).not.toBeNull();
    const [message] = await messagesAbout(tenant, id);
    expect(message).toMatchObject({ template: 'content_rejected' });
    expect(message!.body).toContain('Contains someone else\'s music.');
    expect(await eventTypes(tenant, id)).toEqual(['creators.content.submitted', 'creators.content.rejected']);
    expect((await detail(tenant, slug)).approvals[1]).toMatchObject({ action: 'rejected', note: 'Contains someone else\'s music.' });
  });

  it('rejects changes_requested too', async () => {
    const tenant = await t.tenant();
    const { slug } = await pending(tenant, 'gave.up');
    expectStatus(await admin(t, tenant, slug, 'request-changes', { message: 'x' }), 200);
    expect(expectStatus(await admin(t, tenant, slug, 'reject', { reason: 'No changes came.' }), 200).data.status).toBe('rejected');
  });

  it('asks for changes with a message and the items concerned, which must be the content\'s own', async () => {
    const tenant = await t.tenant();
    const { slug, id, trailer, items } = await pending(tenant, 'changes');
    expectError(await admin(t, tenant, slug, 'request-changes', { message: 'x', items: [await readyAsset(t, tenant)] }), 422, 'validation_failed', { param: 'items.0' });
    const res = expectStatus(await admin(t, tenant, slug, 'request-changes', { message: 'Recut the trailer.', items: [trailer, items[0]] }), 200).data;
    expect(res).toMatchObject({ status: 'changes_requested', review_note: 'Recut the trailer.', requested_items: [trailer, items[0]] });
    expect((await messagesAbout(tenant, id))[0]).toMatchObject({ template: 'content_changes_requested' });
    expect((await detail(tenant, slug)).approvals[1]).toMatchObject({ action: 'changes_requested', note: 'Recut the trailer.', items: [trailer, items[0]] });
    expect(await eventTypes(tenant, id)).toEqual(['creators.content.submitted', 'creators.content.changes_requested']);
  });

  it('validates the bodies: a reason of at most 1,000 characters, a message', async () => {
    const tenant = await t.tenant();
    const { slug } = await pending(tenant, 'bodies');
    expectError(await admin(t, tenant, slug, 'reject', {}), 422, 'validation_failed', { param: 'reason' });
    expectError(await admin(t, tenant, slug, 'reject', { reason: 'x'.repeat(1001) }), 422, 'validation_failed', { param: 'reason' });
    expectError(await admin(t, tenant, slug, 'request-changes', {}), 422, 'validation_failed', { param: 'message' });
    expectError(await admin(t, tenant, slug, 'approve', { note: 'x'.repeat(1001) }), 422, 'validation_failed', { param: 'note' });
    expectStatus(await admin(t, tenant, slug, 'reject', { reason: 'x'.repeat(1000) }), 200);
  });
});

describe('refused transitions', () => {
  it('answers 409 INVALID_STATE for every move not listed, and 422 INVALID_OPERATION for publishing what is not approved', async () => {
    const tenant = await t.tenant();
    await creatorOrg(t, tenant, 'refusals');
    const at = async (status: string) => {
      const made = await content(t, tenant, 'refusals', { title: `In ${status}`, items: [await readyAsset(t, tenant)] });
      if (status === 'draft') return made.slug;
      await submit(t, tenant, 'refusals', made.slug);
      if (status === 'changes_requested') expectStatus(await admin(t, tenant, made.slug, 'request-changes', { message: 'x' }), 200);
      if (status === 'rejected') expectStatus(await admin(t, tenant, made.slug, 'reject', { reason: 'x' }), 200);
      if (status === 'published') expectStatus(await admin(t, tenant, made.slug, 'approve'), 200);
      return made.slug;
    };
    const refused: Record<string, string[]> = {
      approve: ['draft', 'rejected', 'published'],
      reject: ['draft', 'rejected', 'published'],
      'request-changes': ['draft', 'changes_requested', 'rejected', 'published'],
    };
    const bodies: Record<string, object> = { approve: {}, reject: { reason: 'x' }, 'request-changes': { message: 'x' } };
    for (const [action, statuses] of Object.entries(refused)) {
      for (const status of statuses) {
        const slug = await at(status);
        const res = await admin(t, tenant, slug, action, bodies[action]);
        expect(res.status, `${action} from ${status}`).toBe(409);
        expect(res.body).toEqual({ error: { code: 'INVALID_STATE', message: expect.stringContaining(`is ${status}`) } });
      }
    }
    for (const status of ['draft', 'pending_review', 'changes_requested', 'rejected']) {
      const res = await admin(t, tenant, await at(status), 'publish');
      expect(res.status, `publish from ${status}`).toBe(422);
      expect(res.body).toEqual({ error: { code: 'INVALID_OPERATION', message: `Only approved content can be published; this content is ${status}.` } });
    }
  });

  it('answers 404 for an unknown content slug on every route', async () => {
    const tenant = await t.tenant();
    expectError(await t.http().get('/v1/tenant/admin/plus/approvals/no-such-thing').set(sk(tenant)), 404, 'resource_not_found');
    for (const [action, body] of [['approve', {}], ['reject', { reason: 'x' }], ['request-changes', { message: 'x' }], ['publish', {}]] as const) {
      expectError(await admin(t, tenant, 'no-such-thing', action, body), 404, 'resource_not_found');
    }
    // Another tenant's content is unknown too.
    const other = await t.tenant('Other');
    const { slug } = await pending(other, 'theirs');
    expectError(await admin(t, tenant, slug, 'approve'), 404, 'resource_not_found');
    expectError(await t.http().get(`/v1/tenant/admin/plus/approvals/${slug}`).set(bearer(other.keys.live.secret)), 404, 'resource_not_found');
  });

  it('lets one of two concurrent decisions win', async () => {
    const tenant = await t.tenant();
    const { slug } = await pending(tenant, 'race');
    const [a, b] = await Promise.all([admin(t, tenant, slug, 'approve'), admin(t, tenant, slug, 'reject', { reason: 'x' })]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((await detail(tenant, slug)).approvals).toHaveLength(a.status === 200 ? 3 : 2);
  });
});

describe('the role matrix for tenant staff', () => {
  it('takes owners, admins and support; refuses developers, viewers, creators and customers', async () => {
    const tenant = await t.tenant();
    const { org } = await pending(tenant, 'staff.matrix');
    const calls = async (auth: Record<string, string>) => [
      await t.http().get('/v1/tenant/admin/plus/approvals').set(auth).set(header(tenant)),
      await t.http().get('/v1/tenant/admin/plus/approvals/drop-of-staff-matrix').set(auth).set(header(tenant)),
      await t.http().post('/v1/tenant/admin/plus/approvals/no-such/approve').set(auth).set(header(tenant)).send({}),
      await t.http().post('/v1/tenant/admin/plus/contents/no-such/publish').set(auth).set(header(tenant)),
    ];
    for (const role of ['owner', 'admin', 'support']) {
      const [list, one, approve, publish] = await calls((await staffMember(t, tenant, role)).auth);
      expect([list!.status, one!.status, approve!.status, publish!.status], role).toEqual([200, 200, 404, 404]);
    }
    const refused = [
      await staffMember(t, tenant, 'developer'),
      await staffMember(t, tenant, 'viewer'),
      await orgMember(t, tenant, org.id, 'owner'),
      await signIn(t, tenant),
    ];
    for (const person of refused) {
      for (const res of await calls(person.auth)) {
        const error = expectError(res, 403, 'missing_permission');
        expect(error.details).toEqual({ required_permission: 'contents:review' });
      }
    }
    expectError(await t.http().get('/v1/tenant/admin/plus/approvals').set(header(tenant)), 401, 'api_key_missing');
  });
});
