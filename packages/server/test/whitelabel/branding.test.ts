import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { orgMember, staffMember } from '../creators/creators-fixtures';
import { liveSk, organization, pk, restrictedKey, sk } from './whitelabel-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

describe('tenant branding', () => {
  it('starts with the tenant name and neutral colours; PATCH sets, nests and clears fields', async () => {
    const tenant = await t.tenant('Acme Events');
    const first = expectStatus(await t.http().get('/v1/branding').set(sk(tenant)), 200).data;
    expect(first).toMatchObject({ object: 'branding', livemode: false, display_name: 'Acme Events', logo_url: null, updated_at: null, warnings: [] });
    expect(first.colors).toEqual({ primary: null, accent: null, background: null, text: null });

    const patched = expectStatus(
      await t.http().patch('/v1/branding').set(sk(tenant)).send({
        display_name: 'Acme Tickets',
        logo_url: 'https://cdn.acme.example/logo.png',
        colors: { primary: '#0B5FFF', accent: '#ff6600' },
        support_email: 'help@acme.example',
        support_phone: '+254711000111',
        legal: { terms_url: 'https://acme.example/terms' },
        email_sender_name: 'Acme Tickets',
        footer_text: 'Acme Events Ltd, Nairobi',
      }),
      200,
    ).data;
    expect(patched).toMatchObject({
      display_name: 'Acme Tickets',
      logo_url: 'https://cdn.acme.example/logo.png',
      colors: { primary: '#0B5FFF', accent: '#ff6600', background: null, text: null },
      legal: { terms_url: 'https://acme.example/terms', privacy_url: null, refund_policy_url: null },
      footer_text: 'Acme Events Ltd, Nairobi',
      warnings: [],
    });
    expect(patched.updated_at).not.toBeNull();

    const cleared = expectStatus(await t.http().patch('/v1/branding').set(sk(tenant)).send({ logo_url: null, colors: { accent: null } }), 200).data;
    expect(cleared).toMatchObject({ logo_url: null, colors: { primary: '#0B5FFF', accent: null }, display_name: 'Acme Tickets' });
    // One per environment: live mode is untouched.
    expect(expectStatus(await t.http().get('/v1/branding').set(liveSk(tenant)), 200).data).toMatchObject({ livemode: true, display_name: 'Acme Events', logo_url: null });
  });

  it('warns when text on the primary colour fails WCAG AA, and accepts it', async () => {
    const tenant = await t.tenant();
    const body = expectStatus(await t.http().patch('/v1/branding').set(sk(tenant)).send({ colors: { primary: '#777777', text: '#bbbbbb', background: '#ffffff' } }), 200).data;
    expect(body.warnings.map((w: { param: string }) => w.param).sort()).toEqual(['colors.primary', 'colors.text']);
    expect(body.warnings[0]).toMatchObject({ code: 'low_contrast' });
  });

  it('refuses bad values with 422 and the field: colours, URLs, http in live mode, credentials, emails', async () => {
    const tenant = await t.tenant();
    expectError(await t.http().patch('/v1/branding').set(sk(tenant)).send({ colors: { primary: 'blue' } }), 422, 'validation_failed');
    expectError(await t.http().patch('/v1/branding').set(sk(tenant)).send({ logo_url: 'not a url' }), 422, 'validation_failed');
    expectError(await t.http().patch('/v1/branding').set(sk(tenant)).send({ support_email: 'nope' }), 422, 'validation_failed');
    expectError(await t.http().patch('/v1/branding').set(sk(tenant)).send({ display_name: '' }), 422, 'validation_failed');
    expectError(await t.http().patch('/v1/branding').set(sk(tenant)).send({ unknown_field: 1 }), 422, 'validation_failed');
    expectError(await t.http().patch('/v1/branding').set(sk(tenant)).send({ logo_url: 'https://user:pw@cdn.example/logo.png' }), 422, 'validation_failed', { param: 'logo_url' });
    expectError(await t.http().patch('/v1/branding').set(sk(tenant)).send({ logo_url: 'ftp://cdn.example/logo.png' }), 422, 'validation_failed', { param: 'logo_url' });
    // Test mode takes http:// (local development); live mode only https://.
    expectStatus(await t.http().patch('/v1/branding').set(sk(tenant)).send({ logo_url: 'http://localhost:9/logo.png' }), 200);
    expectError(await t.http().patch('/v1/branding').set(liveSk(tenant)).send({ legal: { privacy_url: 'http://acme.example/privacy' } }), 422, 'validation_failed', { param: 'legal.privacy_url' });
  });

  it('takes restricted keys with platform scopes and members with branding permissions', async () => {
    const tenant = await t.tenant();
    const reader = await restrictedKey(t, tenant, ['platform:read']);
    const other = await restrictedKey(t, tenant, ['events:write']);
    expectStatus(await t.http().get('/v1/branding').set(reader), 200);
    expectError(await t.http().patch('/v1/branding').set(reader).send({ display_name: 'X' }), 403, 'missing_scope');
    expectError(await t.http().get('/v1/branding').set(other), 403, 'missing_scope');
    expectStatus(await t.http().patch('/v1/branding').set(await restrictedKey(t, tenant, ['platform:write'])).send({ display_name: 'Y' }), 200);

    const admin = await staffMember(t, tenant, 'admin');
    const viewer = await staffMember(t, tenant, 'viewer');
    expectStatus(await t.http().patch('/v1/branding').set(admin.auth).set({ 'Svc-Tenant': tenant.tenant.code }).send({ display_name: 'By admin' }), 200);
    expectError(await t.http().patch('/v1/branding').set(viewer.auth).set({ 'Svc-Tenant': tenant.tenant.code }).send({ display_name: 'No' }), 403, 'missing_permission');
    // An organization's admin may brand the organization, not the tenant.
    const org = await organization(t, tenant, 'orgadmin');
    const orgAdmin = await orgMember(t, tenant, org.id, 'admin');
    const asOrgAdmin = { ...orgAdmin.auth, 'Svc-Tenant': tenant.tenant.code };
    expectError(await t.http().patch('/v1/branding').set(asOrgAdmin).send({ display_name: 'No' }), 403, 'missing_permission');
    expectStatus(await t.http().patch(`/v1/organizations/${org.id}/branding`).set(asOrgAdmin).send({ display_name: 'Org brand' }), 200);
    const otherOrg = await organization(t, tenant, 'orgother');
    expectError(await t.http().patch(`/v1/organizations/${otherOrg.id}/branding`).set(asOrgAdmin).send({ display_name: 'No' }), 403, 'missing_permission');
  });
});

describe('organization branding and the effective brand', () => {
  it('overrides the tenant field by field; null inherits; the public read merges', async () => {
    const tenant = await t.tenant('Acme Events');
    const org = await organization(t, tenant, 'sautisol');
    expectStatus(await t.http().patch('/v1/branding').set(sk(tenant)).send({ display_name: 'Acme', colors: { primary: '#003366', accent: '#ff6600' }, support_email: 'help@acme.example' }), 200);
    const own = expectStatus(await t.http().get(`/v1/organizations/${org.id}/branding`).set(sk(tenant)), 200).data;
    expect(own).toMatchObject({ object: 'organization_branding', organization: org.id, display_name: null, colors: { primary: null } });

    const patched = expectStatus(await t.http().patch(`/v1/organizations/${org.id}/branding`).set(sk(tenant)).send({ display_name: 'Sauti Sol', colors: { primary: '#aa0044' } }), 200).data;
    expect(patched).toMatchObject({ display_name: 'Sauti Sol', colors: { primary: '#aa0044', accent: null } });

    const effective = expectStatus(await t.http().get('/v1/public/branding').query({ organization: org.id }).set(pk(tenant)), 200).data;
    expect(effective).toMatchObject({ object: 'effective_branding', organization: org.id, display_name: 'Sauti Sol', support_email: 'help@acme.example' });
    expect(effective.colors).toEqual({ primary: '#aa0044', accent: '#ff6600', background: '#f6f6f4', text: '#111111' });
    const tenantWide = expectStatus(await t.http().get('/v1/public/branding').set(pk(tenant)), 200).data;
    expect(tenantWide).toMatchObject({ organization: null, display_name: 'Acme', colors: { primary: '#003366' } });

    // Back to inheriting: the cache of the effective brand is cleared on the change.
    expectStatus(await t.http().patch(`/v1/organizations/${org.id}/branding`).set(sk(tenant)).send({ display_name: null, colors: { primary: null } }), 200);
    const inherited = expectStatus(await t.http().get('/v1/public/branding').query({ organization: org.id }).set(pk(tenant)), 200).data;
    expect(inherited).toMatchObject({ display_name: 'Acme', colors: { primary: '#003366' } });
  });

  it('keeps tenants apart: another tenant\'s organization is 404, its brand never shows', async () => {
    const a = await t.tenant('Tenant A');
    const b = await t.tenant('Tenant B');
    const orgA = await organization(t, a, 'orga');
    expectStatus(await t.http().patch(`/v1/organizations/${orgA.id}/branding`).set(sk(a)).send({ display_name: 'Only A' }), 200);
    expectError(await t.http().get(`/v1/organizations/${orgA.id}/branding`).set(sk(b)), 404, 'resource_not_found');
    expectError(await t.http().patch(`/v1/organizations/${orgA.id}/branding`).set(sk(b)).send({ display_name: 'B' }), 404, 'resource_not_found');
    expectError(await t.http().get('/v1/public/branding').query({ organization: orgA.id }).set(pk(b)), 404, 'resource_not_found');
    expect(expectStatus(await t.http().get('/v1/public/branding').set(pk(b)), 200).data.display_name).toBe('Tenant B');
    expectError(await t.http().get('/v1/organizations/org_unknown/branding').set(sk(a)), 404, 'resource_not_found');
  });

  it('answers the public read to a tenant header (live mode), and refuses callers without credentials', async () => {
    const tenant = await t.tenant('Header Co');
    expect(expectStatus(await t.http().get('/v1/public/branding').set({ 'X-Tenant-Code': tenant.tenant.code }), 200).data).toMatchObject({ display_name: 'Header Co' });
    expectError(await t.http().get('/v1/public/branding'), 401, 'api_key_missing');
    expectError(await t.http().get('/v1/branding').set(pk(tenant)), 403, 'insufficient_permissions');
  });
});
