import { describe, expect, it } from 'vitest';
import { creatorOrg, orgMember, sk, staffMember } from '../creators/creators-fixtures';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';

const t = useTestServer();

describe('who changes the promoter settings', () => {
  it('any member with promoters:read reads them; only a tenant role with promoters:write changes them', async () => {
    const tenant = await t.tenant();
    const org = await creatorOrg(t, tenant, 'settings.roles');
    const owner = await orgMember(t, tenant, org.id, 'owner');
    const admin = await staffMember(t, tenant, 'admin');
    const viewer = await staffMember(t, tenant, 'viewer');

    // The settings span every organization: an organization's owner reads them but cannot change them.
    expect(expectStatus(await t.http().get('/v1/promoters/settings').set(owner.auth), 200).data).toMatchObject({ object: 'promoter_settings', attribution_window_days: 30 });
    const refused = expectError(await t.http().patch('/v1/promoters/settings').set(owner.auth).send({ attribution_window_days: 5 }), 403, 'missing_permission');
    expect(refused.details).toMatchObject({ required_permission: 'promoters:write' });
    expectError(await t.http().patch('/v1/promoters/settings').set(viewer.auth).send({ attribution_window_days: 5 }), 403, 'missing_permission');
    expect(expectStatus(await t.http().get('/v1/promoters/settings').set(sk(tenant)), 200).data.attribution_window_days).toBe(30);

    const changed = expectStatus(await t.http().patch('/v1/promoters/settings').set(admin.auth).send({ attribution_window_days: 5, self_referral: 'allow' }), 200).data;
    expect(changed).toMatchObject({ attribution_window_days: 5, refund_window_days: 7, self_referral: 'allow' });
    expect(expectStatus(await t.http().get('/v1/promoters/settings').set(viewer.auth), 200).data).toMatchObject({ attribution_window_days: 5, self_referral: 'allow' });
  });
});
