import { newId } from '../../src/core/ids';
import type { Scope } from '../../src/core/scope';
import type { TestServer } from '../harness';

/** A webhook endpoint row straight in the database, for tests of the event log alone. */
export async function insertEndpointRow(t: TestServer, scope: Scope, enabledEvents: string[], url = 'http://127.0.0.1:9/hook') {
  const id = newId('webhook_endpoint');
  await t.ctx.db
    .insertInto('webhook_endpoints')
    .values({
      id,
      tenant_id: scope.tenantId,
      livemode: scope.livemode,
      url,
      description: null,
      enabled_events: enabledEvents,
      api_version: '2026-11-01',
      status: 'enabled',
      disabled_reason: null,
      disabled_at: null,
      secret_sealed: t.ctx.secrets.encrypt('whsec_test', id),
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      failing_since: null,
      external_id: null,
      metadata: '{}',
    })
    .execute();
  return id;
}
