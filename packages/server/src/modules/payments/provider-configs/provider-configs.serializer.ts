import type { PaymentProviderConfig } from '@svc/contract';
import type { PaymentProviderConfigRow } from '../../../db/payments.schema';
import { providerDefinition } from '../providers/registry';

/** The address a provider's notifications go to (M-Pesa: the base of its per-operation addresses). */
export const webhookUrlOf = (baseUrl: string, row: Pick<PaymentProviderConfigRow, 'type' | 'id'>) => `${baseUrl}/api/v1/payments/${row.type}/webhooks/${row.id}`;

export function serializeProviderConfig(baseUrl: string, row: PaymentProviderConfigRow): PaymentProviderConfig {
  const definition = providerDefinition(row.type);
  const account = row.account ?? {};
  return {
    id: row.id,
    object: 'payment_provider_config',
    livemode: row.livemode,
    type: row.type,
    name: row.name,
    organization: row.organization_id,
    methods: [...(definition?.methods ?? [])],
    account,
    capabilities: definition?.capabilities(account) ?? { refunds: false, payouts: false, automatic_renewal: false },
    secret_fields: row.secret_fields,
    webhook_url: webhookUrlOf(baseUrl, row),
    status: row.status,
    last_error: row.last_error ?? null,
    verified_at: row.verified_at === null ? null : new Date(row.verified_at).toISOString(),
    external_id: row.external_id,
    metadata: row.metadata ?? {},
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
