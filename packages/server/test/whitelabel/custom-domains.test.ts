import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { pendingBooking } from '../ticketing/payments-fixtures';
import { organization, pk, sk, type Tenant } from './whitelabel-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000', PUBLIC_BASE_URL: 'https://svc.example.net' });

let a: Tenant;
let b: Tenant;
let org: { id: string };
let otherOrg: { id: string };

async function activeDomain(tenant: Tenant, hostname: string, extra: object = {}) {
  const d = expectStatus(await t.http().post('/v1/domains').set(sk(tenant)).send({ hostname, ...extra }), 201).data;
  return expectStatus(await t.http().post(`/v1/test_helpers/domains/${d.id}/simulate`).set(sk(tenant)).send({ outcome: 'active' }), 200).data as { id: string };
}

async function publicCapsule(tenant: Tenant, handle: string) {
  expectStatus(await t.http().patch(`/v1/creator/orgs/${handle}/capsule-profile`).set(sk(tenant)).send({ bio: 'We sing.', is_public: true }), 200);
}

beforeAll(async () => {
  a = await t.tenant('Acme Events');
  b = await t.tenant('Beta Live');
  org = await organization(t, a, 'sautisol', 'Sauti Sol');
  otherOrg = await organization(t, a, 'bienaime', 'Bien');
  await publicCapsule(a, 'sautisol');
  await publicCapsule(a, 'bienaime');
  expectStatus(await t.http().patch('/v1/branding').set(sk(a)).send({ display_name: 'Acme Tickets', colors: { primary: '#003366' } }), 200);
  expectStatus(await t.http().patch(`/v1/organizations/${org.id}/branding`).set(sk(a)).send({ display_name: '<script>alert(1)</script> Sol', colors: { primary: '#aa0044' } }), 200);
  await activeDomain(a, 'tickets.acme.example', { serves: ['checkout', 'capsule'] });
  await activeDomain(a, 'sautisol.example', { organization: org.id, serves: ['capsule'] });
});

const on = (host: string) => ({ Host: host });

describe('requests on a custom domain', () => {
  it('serve the domain\'s tenant without any credential, in the organization\'s brand on its domain', async () => {
    const tenantWide = expectStatus(await t.http().get('/v1/public/branding').set(on('tickets.acme.example')), 200).data;
    expect(tenantWide).toMatchObject({ organization: null, display_name: 'Acme Tickets' });
    const orgDomain = expectStatus(await t.http().get('/v1/public/branding').set(on('SautiSol.Example:443')), 200).data;
    expect(orgDomain).toMatchObject({ organization: org.id, display_name: '<script>alert(1)</script> Sol', colors: { primary: '#aa0044' } });
    expectError(await t.http().get('/v1/public/branding').query({ organization: otherOrg.id }).set(on('sautisol.example')), 404, 'resource_not_found');
  });

  it('narrow public reads to the domain\'s organization, with links on the domain', async () => {
    const capsule = expectStatus(await t.http().get('/v1/public/capsules/sautisol').set(on('sautisol.example')), 200).data;
    expect(capsule.branding.display_name).toBe('<script>alert(1)</script> Sol');
    expect(capsule.capsule.public_url).toBe('https://sautisol.example/v1/public/capsules/sautisol');
    expectError(await t.http().get('/v1/public/capsules/bienaime').set(on('sautisol.example')), 404, 'resource_not_found');
    // The tenant-wide domain serves every organization; off a domain, links use the organization's own domain.
    expectStatus(await t.http().get('/v1/public/capsules/bienaime').set(on('tickets.acme.example')), 200);
    const direct = expectStatus(await t.http().get('/v1/public/capsules/sautisol').set(pk(a)), 200).data;
    expect(direct.capsule.public_url).toBe('https://sautisol.example/v1/public/capsules/sautisol');
    const bien = expectStatus(await t.http().get('/v1/public/capsules/bienaime').set(pk(a)), 200).data;
    expect(bien.capsule.public_url).toBe('https://tickets.acme.example/v1/public/capsules/bienaime');
  });

  it('render the capsule page with every brand value escaped', async () => {
    const res = await t.http().get('/capsules/sautisol').set(on('sautisol.example'));
    expect(res.status).toBe(200);
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Sol');
    expect(res.text).not.toContain('<script>alert(1)');
    expect(res.text).toContain('--brand-primary:#aa0044');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await t.http().get('/capsules/bienaime').set(on('sautisol.example'))).status).toBe(404);
  });

  it('answer only the families the domain serves', async () => {
    expectError(await t.http().get('/v1/domains').set(sk(a)).set(on('tickets.acme.example')), 404, 'route_not_found');
    expectError(await t.http().get('/v1/checkout/sessions/cs_unknown').set(on('sautisol.example')), 404, 'route_not_found');
    expectError(await t.http().get('/v1/checkout/sessions/cs_unknown').set(on('tickets.acme.example')), 404, 'resource_not_found');
  });

  it('show only the domain\'s own tenant\'s checkouts, in its brand', async () => {
    const own = await pendingBooking(t, a);
    const foreign = await pendingBooking(t, b);
    // Booking links to the tenant's domain serving checkout; the other tenant has none.
    expect(own.payment).toBe(`https://tickets.acme.example/checkout/${own.session}`);
    expect(foreign.payment).toBe(`https://svc.example.net/checkout/${foreign.session}`);
    const page = await t.http().get(`/checkout/${own.session}`).set(on('tickets.acme.example'));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Acme Tickets');
    const session = expectStatus(await t.http().get(`/v1/checkout/sessions/${own.session}`).set(on('tickets.acme.example')), 200).data;
    expect(session.url).toBe(`https://tickets.acme.example/checkout/${own.session}`);
    expect((await t.http().get(`/checkout/${foreign.session}`).set(on('tickets.acme.example'))).status).toBe(404);
    expectError(await t.http().get(`/v1/checkout/sessions/${foreign.session}`).set(on('tickets.acme.example')), 404, 'resource_not_found');
    // Off the domain, the other tenant's page is its own, in its own name.
    const elsewhere = await t.http().get(`/checkout/${foreign.session}`);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.text).toContain('Beta Live');
    expect(elsewhere.text).not.toContain('Acme');
  });

  it('refuse another tenant\'s key, token or tenant header with 400 tenant_mismatch', async () => {
    expectError(await t.http().get('/v1/public/branding').set(pk(b)).set(on('tickets.acme.example')), 400, 'tenant_mismatch');
    expectError(await t.http().get('/v1/public/branding').set({ 'X-Tenant-Code': b.tenant.code }).set(on('tickets.acme.example')), 400, 'tenant_mismatch');
    expect(expectStatus(await t.http().get('/v1/public/branding').set(pk(a)).set(on('tickets.acme.example')), 200).data.display_name).toBe('Acme Tickets');
  });

  it('serve an unknown host as the service itself, never as another tenant', async () => {
    expectError(await t.http().get('/v1/public/branding').set(on('unknown.example')), 401, 'api_key_missing');
    expect(expectStatus(await t.http().get('/v1/public/branding').set(pk(b)).set(on('unknown.example')), 200).data.display_name).toBe('Beta Live');
    // A domain only pending or verified is not served.
    const pending = expectStatus(await t.http().post('/v1/domains').set(sk(b)).send({ hostname: 'pending.beta.example' }), 201).data;
    expectError(await t.http().get('/v1/public/branding').set(on('pending.beta.example')), 401, 'api_key_missing');
    expectStatus(await t.http().post(`/v1/test_helpers/domains/${pending.id}/simulate`).set(sk(b)).send({ outcome: 'verified' }), 200);
    expectError(await t.http().get('/v1/public/branding').set(on('pending.beta.example')), 401, 'api_key_missing');
  });

  it('send sign-in links on the domain, in the organization\'s brand', async () => {
    const email = `fan${Date.now()}@example.com`;
    expectStatus(await t.http().post('/auth/v1/magic_link').set(on('sautisol.example')).send({ email }), 200);
    const message = expectStatus(await t.http().get('/v1/messages').query({ to: email, template: 'magic_link' }).set(sk(a)), 200).data[0];
    expect(message.subject).toBe('Sign in to <script>alert(1)</script> Sol');
    expect(message.body).toMatch(/^Sign in to <script>alert\(1\)<\/script> Sol: https:\/\/sautisol\.example\/auth\/v1\/magic_link\/verify\?token=/);
    expect(message.body).toMatch(/— <script>alert\(1\)<\/script> Sol$/);
    const token = /token=([\w-]+)/.exec(message.body)![1]!;
    const landing = await t.http().get('/auth/v1/magic_link/verify').query({ token }).set(on('sautisol.example'));
    expect(landing.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Sol');
    expect(landing.text).not.toContain('<script>alert(1)');
  });

  it('stop serving a deleted domain at once, and a domain deleted by another process as soon as it says so', async () => {
    const d = await activeDomain(b, 'gone.beta.example');
    expectStatus(await t.http().get('/v1/public/branding').set(on('gone.beta.example')), 200);
    expectStatus(await t.http().delete(`/v1/domains/${d.id}`).set(sk(b)), 200);
    expectError(await t.http().get('/v1/public/branding').set(on('gone.beta.example')), 401, 'api_key_missing');
    expect((await t.http().get('/internal/domains/allow').query({ domain: 'gone.beta.example' })).status).toBe(404);

    // Another process deletes: this one hears the NOTIFY on its LISTEN connection and forgets.
    const e = await activeDomain(b, 'elsewhere.beta.example');
    expectStatus(await t.http().get('/v1/public/branding').set(on('elsewhere.beta.example')), 200);
    await t.ctx.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('domains').where('id', '=', e.id).execute();
      await sql`select pg_notify('svc_whitelabel', 'domains')`.execute(trx);
    });
    await expect.poll(async () => (await t.http().get('/v1/public/branding').set(on('elsewhere.beta.example'))).status, { timeout: 5_000 }).toBe(401);
  });
});
