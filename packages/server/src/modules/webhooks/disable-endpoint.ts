import type { Transaction } from 'kysely';
import { emitEvent } from '../../core/events/emit-event';
import { newId } from '../../core/ids';
import { scoped, type Scope } from '../../core/scope';
import type { DB } from '../../db/schema';
import { failOpenDeliveries } from './webhook-deliveries.repository';
import { serializeWebhookEndpoint } from './webhook-endpoints.serializer';

const WHY = {
  gone: 'it answered 410 Gone',
  failing: 'every delivery to it failed for 3 days',
} as const;

/**
 * Disables an endpoint the service gave up on, ends its pending deliveries, emits
 * `platform.webhook_endpoint.disabled` and records an email to the tenant's owners. Does nothing when the
 * endpoint is already disabled, so concurrent failing deliveries disable it once.
 */
export async function disableEndpoint(trx: Transaction<DB>, scope: Scope, endpointId: string, reason: keyof typeof WHY, now: Date) {
  const row = await scoped(trx, scope)
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: reason, disabled_at: now, updated_at: now })
    .where('id', '=', endpointId)
    .where('status', '=', 'enabled')
    .returningAll()
    .executeTakeFirst();
  if (!row) return false;
  await failOpenDeliveries(trx, endpointId);
  const endpoint = serializeWebhookEndpoint(row);
  await emitEvent(trx, scope, {
    type: 'platform.webhook_endpoint.disabled',
    subject: endpoint.id,
    object: endpoint,
    previousAttributes: { status: 'enabled', disabled_reason: null },
  });
  await scoped(trx, scope)
    .insertInto('email_outbox', {
      id: newId('outbox_email'),
      recipients: 'tenant_owners',
      template: 'webhook_endpoint_disabled',
      subject: `Webhook endpoint disabled: ${row.url}`,
      body: [
        `We disabled your ${scope.livemode ? 'live' : 'test'} webhook endpoint ${row.url} (${row.id}) because ${WHY[reason]}.`,
        'Fix the receiver, re-enable the endpoint with PATCH /v1/webhook_endpoints/{id} {"status": "enabled"},',
        'then send the events it missed with POST /v1/webhook_endpoints/{id}/replay.',
      ].join('\n'),
      data: JSON.stringify({ webhook_endpoint: row.id, url: row.url, reason }),
    })
    .execute();
  return true;
}
