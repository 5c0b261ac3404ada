import type { WebhookEndpoint } from '@svc/contract';
import type { Selectable } from 'kysely';
import type { WebhookEndpointsTable } from '../../db/events-webhooks.schema';

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

/** The endpoint as the API shows it; `secret` only when it was just created or rolled. */
export function serializeWebhookEndpoint(row: WebhookEndpointRow, secret?: string, now = new Date()): WebhookEndpoint {
  const graceEnds = row.previous_secret_expires_at;
  return {
    id: row.id,
    object: 'webhook_endpoint',
    livemode: row.livemode,
    url: row.url,
    description: row.description,
    enabled_events: row.enabled_events,
    api_version: row.api_version,
    status: row.status,
    disabled_reason: row.disabled_reason,
    previous_secret_expires_at: graceEnds && graceEnds > now ? graceEnds.toISOString() : null,
    external_id: row.external_id,
    metadata: row.metadata,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    ...(secret ? { secret } : {}),
  };
}
