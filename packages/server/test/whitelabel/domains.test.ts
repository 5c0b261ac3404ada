import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkDueDomains } from '../../src/modules/whitelabel/domains/check-domains.job';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { FakeProbe, liveSk, organization, restrictedKey, sk, type Tenant } from './whitelabel-fixtures';

const t = useTestServer({ PUBLIC_BASE_URL: 'https://svc.example.net' });
const probe = new FakeProbe();
let clock = new Date();

beforeAll(() => {
  t.ctx.domainProbe = {
    resolveTxt: (name) => probe.resolveTxt(name),
    // The routing check asks the app itself, with the domain's Host: its real check path answers.
    fetchCheck: async (hostname) => {
      if (!probe.routes.has(hostname)) return null;
      const res = await request(t.app).get('/.well-known/svc-domain-check').set('Host', hostname);
      return res.status === 200 ? res.text : null;
    },
  };
  t.ctx.clock = () => clock;
});

const later = (ms: number) => (clock = new Date(clock.getTime() + ms));
const add = (tenant: Tenant, body: object, auth = sk(tenant)) => t.http().post('/v1/domains').set(auth).send(body);
const events = (id: string) =>
  t.ctx.db.selectFrom('event_log').select('type').where('subject', '=', id).orderBy('created_at').execute().then((rows) => rows.map((r) => r.type));

describe('adding a domain', () => {
  it('normalises the hostname and answers the TXT record and the DNS target', async () => {
    const tenant = await t.tenant();
    const d = expectStatus(await add(tenant, { hostname: ' Tickets.Acme-Events.EXAMPLE. ', metadata: { team: 'web' } }), 201).data;
    expect(d).toMatchObject({
      object: 'domain',
      livemode: false,
      hostname: 'tickets.acme-events.example',
      organization: null,
      serves: ['checkout', 'capsule'],
      status: 'pending_verification',
      dns_target: 'svc.example.net',
      failure_reason: null,
      trusted_origin: false,
      metadata: { team: 'web' },
    });
    expect(d.id).toMatch(/^dom_/);
    expect(d.verification).toMatchObject({ type: 'TXT', name: '_svc-challenge.tickets.acme-events.example' });
    expect(d.verification.value).toMatch(/^svc-domain-verification=[A-Za-z0-9]{32}$/);
    const idn = expectStatus(await add(tenant, { hostname: 'BÜCHER.example' }), 201).data;
    expect(idn.hostname).toBe('xn--bcher-kva.example');
    expect(expectStatus(await t.http().get(`/v1/domains/${d.id}`).set(sk(tenant)), 200).data).toEqual(d);
    const list = expectStatus(await t.http().get('/v1/domains').set(sk(tenant)), 200);
    expect(list.data.map((x: { id: string }) => x.id)).toEqual([idn.id, d.id]);
  });

  it('refuses IP addresses, wildcards, malformed names and the deployment\'s host with 422', async () => {
    const tenant = await t.tenant();
    for (const [hostname, reason] of [
      ['192.168.1.10', 'ip_address'],
      ['[2001:db8::1]', 'ip_address'],
      ['*.acme.example', 'wildcard'],
      ['localhost', 'malformed'],
      ['bad_label.example', 'malformed'],
      ['svc.example.net', 'deployment_host'],
      ['tenant.svc.example.net', 'deployment_host'],
    ]) {
      expectError(await add(tenant, { hostname }), 422, 'hostname_not_allowed', { param: 'hostname', reason });
    }
    expectError(await add(tenant, {}), 422, 'validation_failed');
    expectError(await add(tenant, { hostname: 'a.example', serves: [] }), 422, 'validation_failed');
  });

  it('takes an organization of the tenant; playback only on tenant-wide domains', async () => {
    const tenant = await t.tenant();
    const other = await t.tenant();
    const org = await organization(t, tenant, 'domorg');
    const d = expectStatus(await add(tenant, { hostname: 'sautisol.example', organization: org.id, serves: ['capsule'] }), 201).data;
    expect(d.organization).toBe(org.id);
    expectError(await add(tenant, { hostname: 'play.example', organization: org.id, serves: ['playback'] }), 422, 'validation_failed', { param: 'serves' });
    expectError(await add(other, { hostname: 'x.example', organization: org.id }), 404, 'resource_not_found');
    expectStatus(await add(tenant, { hostname: 'play.example', serves: ['playback', 'checkout'] }), 201);
    const filtered = expectStatus(await t.http().get('/v1/domains').query({ organization: org.id }).set(sk(tenant)), 200).data;
    expect(filtered.map((x: { id: string }) => x.id)).toEqual([d.id]);
  });

  it('holds 20 domains an environment at most, and one hostname once', async () => {
    const tenant = await t.tenant();
    expectStatus(await add(tenant, { hostname: 'host0.limit.example' }), 201);
    expectError(await add(tenant, { hostname: 'HOST0.limit.example' }), 409, 'domain_taken');
    for (let i = 1; i < 20; i++) expectStatus(await add(tenant, { hostname: `host${i}.limit.example` }), 201);
    expectError(await add(tenant, { hostname: 'host20.limit.example' }), 409, 'domain_limit_reached');
    // The other environment has its own 20.
    expectStatus(await add(tenant, { hostname: 'host0.limit.example' }, liveSk(tenant)), 201);
  });
});

describe('verification', () => {
  it('moves pending → verified → active as DNS and routing appear, with events, through verify and the job', async () => {
    const tenant = await t.tenant();
    const d = expectStatus(await add(tenant, { hostname: 'flow.acme.example' }), 201).data;
    // Nothing in DNS yet: still pending, checked again later (backoff).
    const still = expectStatus(await t.http().post(`/v1/domains/${d.id}/verify`).set(sk(tenant)), 200).data;
    expect(still.status).toBe('pending_verification');
    expect(still.last_checked_at).not.toBeNull();
    // At most one check a minute: the domain is answered as it is.
    probe.txt.set(d.verification.name, [d.verification.value]);
    expect(expectStatus(await t.http().post(`/v1/domains/${d.id}/verify`).set(sk(tenant)), 200).data.status).toBe('pending_verification');
    later(61_000);
    const verified = expectStatus(await t.http().post(`/v1/domains/${d.id}/verify`).set(sk(tenant)), 200).data;
    expect(verified).toMatchObject({ status: 'verified', failure_reason: null });
    expect(verified.verified_at).not.toBeNull();
    // The job takes it on once the host reaches this deployment.
    probe.routes.set('flow.acme.example', 'yes');
    later(61_000);
    await checkDueDomains(t.ctx);
    const active = expectStatus(await t.http().get(`/v1/domains/${d.id}`).set(sk(tenant)), 200).data;
    expect(active.status).toBe('active');
    expect(await events(d.id)).toEqual(['platform.domain.verified', 'platform.domain.activated']);
    const ask = await request(t.app).get('/internal/domains/allow').query({ domain: 'FLOW.acme.example' });
    expect(ask.status).toBe(200);
    expect((await request(t.app).get('/internal/domains/allow').query({ domain: 'nobody.example' })).status).toBe(404);
    expect((await request(t.app).get('/internal/domains/allow').query({ domain: '10.0.0.1' })).status).toBe(404);

    // The TXT record removed: three daily checks in a row fail it, and it stops being served.
    probe.txt.delete(d.verification.name);
    for (let i = 0; i < 3; i++) {
      later(24 * 3600_000 + 1000);
      await checkDueDomains(t.ctx);
    }
    const failed = expectStatus(await t.http().get(`/v1/domains/${d.id}`).set(sk(tenant)), 200).data;
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'txt_removed' });
    expect((await request(t.app).get('/internal/domains/allow').query({ domain: 'flow.acme.example' })).status).toBe(404);
    // Verify on a failed domain starts over.
    later(61_000);
    expect(expectStatus(await t.http().post(`/v1/domains/${d.id}/verify`).set(sk(tenant)), 200).data.status).toBe('pending_verification');
  });

  it('fails a domain whose TXT record never appears within 72 hours', async () => {
    const tenant = await t.tenant();
    const d = expectStatus(await add(tenant, { hostname: 'never.acme.example' }), 201).data;
    later(73 * 3600_000);
    await checkDueDomains(t.ctx);
    const failed = expectStatus(await t.http().get(`/v1/domains/${d.id}`).set(sk(tenant)), 200).data;
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'txt_not_found' });
    expect(await events(d.id)).toEqual(['platform.domain.failed']);
  });

  it('gives a hostname to the first tenant to verify it: 409 elsewhere, and verifying does not transfer it', async () => {
    const a = await t.tenant('A');
    const b = await t.tenant('B');
    const da = expectStatus(await add(a, { hostname: 'contested.example' }), 201).data;
    // Pending claims nothing: B may add it too, with its own record.
    const db = expectStatus(await add(b, { hostname: 'contested.example' }), 201).data;
    expect(db.verification.value).not.toBe(da.verification.value);
    expectStatus(await t.http().post(`/v1/test_helpers/domains/${da.id}/simulate`).set(sk(a)).send({ outcome: 'verified' }), 200);
    expectError(await add(b, { hostname: 'contested.example' }, liveSk(b)), 409, 'domain_taken');
    // B publishes its own record: still pending, A keeps it.
    probe.txt.set(db.verification.name, [db.verification.value]);
    later(61_000);
    expect(expectStatus(await t.http().post(`/v1/domains/${db.id}/verify`).set(sk(b)), 200).data.status).toBe('pending_verification');
    expectError(await t.http().post(`/v1/test_helpers/domains/${db.id}/simulate`).set(sk(b)).send({ outcome: 'active' }), 409, 'domain_taken');
    expect(expectStatus(await t.http().get(`/v1/domains/${da.id}`).set(sk(a)), 200).data.status).toBe('verified');
  });
});

describe('routes', () => {
  it('updates serves, trusted_origin and metadata; deletes', async () => {
    const tenant = await t.tenant();
    const org = await organization(t, tenant, 'patchorg');
    const d = expectStatus(await add(tenant, { hostname: 'patch.example', organization: org.id }), 201).data;
    const patched = expectStatus(await t.http().patch(`/v1/domains/${d.id}`).set(sk(tenant)).send({ serves: ['checkout'], trusted_origin: true, metadata: { a: 'b' } }), 200).data;
    expect(patched).toMatchObject({ serves: ['checkout'], trusted_origin: true, metadata: { a: 'b' } });
    expectError(await t.http().patch(`/v1/domains/${d.id}`).set(sk(tenant)).send({ serves: ['playback'] }), 422, 'validation_failed', { param: 'serves' });
    expectError(await t.http().patch(`/v1/domains/${d.id}`).set(sk(tenant)).send({ hostname: 'other.example' }), 422, 'validation_failed');
    expect(expectStatus(await t.http().delete(`/v1/domains/${d.id}`).set(sk(tenant)), 200).data).toEqual({ id: d.id, object: 'domain', deleted: true });
    expectError(await t.http().get(`/v1/domains/${d.id}`).set(sk(tenant)), 404, 'resource_not_found');
    expectError(await t.http().delete(`/v1/domains/${d.id}`).set(sk(tenant)), 404, 'resource_not_found');
  });

  it('keeps tenants and environments apart: another\'s domain is 404 on every route', async () => {
    const a = await t.tenant();
    const b = await t.tenant();
    const d = expectStatus(await add(a, { hostname: 'private.example' }), 201).data;
    for (const auth of [sk(b), liveSk(a)]) {
      expectError(await t.http().get(`/v1/domains/${d.id}`).set(auth), 404, 'resource_not_found');
      expectError(await t.http().patch(`/v1/domains/${d.id}`).set(auth).send({ metadata: {} }), 404, 'resource_not_found');
      expectError(await t.http().post(`/v1/domains/${d.id}/verify`).set(auth), 404, 'resource_not_found');
      expectError(await t.http().delete(`/v1/domains/${d.id}`).set(auth), 404, 'resource_not_found');
      expect(expectStatus(await t.http().get('/v1/domains').set(auth), 200).data).toEqual([]);
    }
    expectError(await t.http().post(`/v1/test_helpers/domains/${d.id}/simulate`).set(sk(b)).send({ outcome: 'active' }), 404, 'resource_not_found');
  });

  it('needs platform scopes from restricted keys and refuses live keys on the test helper', async () => {
    const tenant = await t.tenant();
    const reader = await restrictedKey(t, tenant, ['platform:read']);
    expectStatus(await t.http().get('/v1/domains').set(reader), 200);
    expectError(await add(tenant, { hostname: 'scoped.example' }, reader), 403, 'missing_scope');
    const d = expectStatus(await add(tenant, { hostname: 'scoped.example' }, await restrictedKey(t, tenant, ['platform:write'])), 201).data;
    expectError(await t.http().post(`/v1/test_helpers/domains/${d.id}/simulate`).set(liveSk(tenant)).send({ outcome: 'active' }), 403, 'live_mode_unavailable');
    expectError(await t.http().post(`/v1/test_helpers/domains/${d.id}/simulate`).set(sk(tenant)).send({ outcome: 'nope' }), 422, 'validation_failed');
    expectError(await t.http().get('/v1/domains').set({}), 401, 'api_key_missing');
  });
});
