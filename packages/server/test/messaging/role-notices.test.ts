import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { signInByEmail } from '../identity/identity-fixtures';
import { disableEndpoint } from '../../src/modules/webhooks/disable-endpoint';
import { OutboxWorker } from '../../src/modules/messaging';
import { messagesTo } from './messaging-fixtures';
import { outboxDeps } from './outbox-kit';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

describe('notices to a tenant', () => {
  it("sends the disabled-endpoint notice to the team's active owners, once", async () => {
    const tenant = await t.tenant();
    const sk = bearer(tenant.keys.test.secret);
    const owner = `owner${Date.now()}@example.test`;
    const invited = `invited${Date.now()}@example.test`;
    expectStatus(await t.http().post('/v1/members').set(sk).send({ email: owner, role: 'owner' }), 201);
    expectStatus(await t.http().post('/v1/members').set(sk).send({ email: invited, role: 'owner' }), 201);
    // Signing in accepts the invitation: only then is the owner one the service writes to.
    await signInByEmail(t, tenant, owner);
    t.ctx.resolveHost = async () => [{ address: '93.184.216.34', family: 4 }];
    const endpoint = expectStatus(await t.http().post('/v1/webhook_endpoints').set(sk).send({ url: 'https://hooks.example.test/svc', enabled_events: ['*'] }), 201).data;
    await t.ctx.db.transaction().execute((trx) => disableEndpoint(trx, { tenantId: tenant.tenant.id, livemode: false }, endpoint.id, 'gone', new Date()));

    const worker = new OutboxWorker(outboxDeps(t));
    await worker.tick();
    await worker.tick();
    const notices = (await messagesTo(t, tenant.keys.test.secret, owner)).filter((m) => m.template === 'webhook_endpoint_disabled');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ channel: 'email', status: 'captured', subject: 'Webhook endpoint disabled: https://hooks.example.test/svc', related: [endpoint.id] });
    expect(notices[0]!.body).toContain('410 Gone');
    expect((await messagesTo(t, tenant.keys.test.secret, invited)).filter((m) => m.template === 'webhook_endpoint_disabled')).toEqual([]);
  });
});
