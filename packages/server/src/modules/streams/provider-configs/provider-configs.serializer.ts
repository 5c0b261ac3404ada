import type { ProviderConfig } from '@svc/contract';
import type { ProviderConfigRow } from '../../../db/provider-configs.schema';

/** Where the account's webhooks and live-input notifications are sent. */
export const inboundWebhookUrl = (baseUrl: string, row: Pick<ProviderConfigRow, 'id' | 'provider'>) =>
  `${baseUrl}/api/v1/providers/${row.provider}/webhooks/${row.id}`;

/** The configuration as the API shows it: ids and the inbound address, never a secret. */
export function serializeProviderConfig(baseUrl: string, row: ProviderConfigRow): ProviderConfig {
  return {
    id: row.id,
    object: 'provider_config',
    livemode: row.livemode,
    provider: row.provider,
    account_id: row.account_id,
    customer_code: row.customer_code,
    signing_key: { id: row.signing_key_id },
    webhook_url: inboundWebhookUrl(baseUrl, row),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
