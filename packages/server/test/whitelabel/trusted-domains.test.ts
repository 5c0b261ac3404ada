import { describe, expect, it } from 'vitest';
import { createStream, grant, server, tenant, useAccessTestServer } from '../access/access-fixtures';
import { expectStatus } from '../kit/expect';

const t = useAccessTestServer();

describe('trusted custom domains in entitlements\' allowed domains', () => {
  it('admit the tenant\'s active domains marked trusted_origin, and no other tenant\'s', async () => {
    const owner = await tenant(t);
    const other = await tenant(t);
    const sk = owner.keys.test.secret;
    const stream = await createStream(t, sk);
    const resource = { type: 'ls', id: stream.id };
    await grant(t, sk, { customer: 'site', resource, limits: { allowed_domains: ['watch.example.com'] } });
    const check = async (domain: string) => expectStatus(await server(t, sk).post('/v1/access/check', { customer: 'site', resource, domain }), 200).data;
    const add = async (key: string, hostname: string, trusted: boolean) => {
      const d = expectStatus(await server(t, key).post('/v1/domains', { hostname, trusted_origin: trusted }), 201).data;
      expectStatus(await server(t, key).post(`/v1/test_helpers/domains/${d.id}/simulate`, { outcome: 'active' }), 200);
      return d.id as string;
    };

    expect(await check('tickets.acme.example')).toMatchObject({ allowed: false, reason: 'domain_not_allowed' });
    const trusted = await add(sk, 'tickets.acme.example', true);
    expect(await check('tickets.acme.example')).toMatchObject({ allowed: true, reason: null });
    await add(sk, 'untrusted.acme.example', false);
    expect(await check('untrusted.acme.example')).toMatchObject({ allowed: false, reason: 'domain_not_allowed' });
    await add(other.keys.test.secret, 'other.example', true);
    expect(await check('other.example')).toMatchObject({ allowed: false, reason: 'domain_not_allowed' });
    // No longer trusted: refused again at once.
    expectStatus(await t.http().patch(`/v1/domains/${trusted}`).set({ authorization: `Bearer ${sk}` }).send({ trusted_origin: false }), 200);
    expect(await check('tickets.acme.example')).toMatchObject({ allowed: false, reason: 'domain_not_allowed' });
  });
});
