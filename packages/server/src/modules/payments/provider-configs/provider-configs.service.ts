import type { z } from 'zod';
import type { CreatePaymentProviderConfigSchema, CursorPageQuery, PaymentProviderConfig, UpdatePaymentProviderConfigSchema } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import { isIdOf, newId } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';
import type { PaymentProviderConfigRow } from '../../../db/payments.schema';
import { savedCardDependents } from '../attempts/saved-card-dependents';
import { secretsContext } from '../providers/provider-for';
import { providerDefinition } from '../providers/registry';
import * as repo from './provider-configs.repository';
import { serializeProviderConfig } from './provider-configs.serializer';
import { verifyCredentials } from './verify-credentials';

type CreateInput = z.infer<typeof CreatePaymentProviderConfigSchema>;
type UpdateInput = z.infer<typeof UpdatePaymentProviderConfigSchema>;
type Fields = Record<string, string | null | undefined>;

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });

/** Splits a request into the type's account fields and its secrets; a field of another type is refused. */
function split(type: PaymentProviderConfigRow['type'], fields: Fields) {
  const definition = providerDefinition(type)!;
  const account: Record<string, string | null> = {};
  const secrets: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (definition.secretFields.includes(key)) secrets[key] = value ?? '';
    else if (definition.accountFields.includes(key)) account[key] = value;
    else throw invalid(key, `A ${type} configuration has no field '${key}'.`);
  }
  return { account, secrets };
}

/** M-Pesa's rules across fields: a till needs its number; an initiator comes with its password. */
function checkMpesa(account: Record<string, string | null>, secrets: Record<string, string>) {
  if (account.shortcode_type === 'till' && !account.till_number) throw invalid('till_number', 'A till shortcode needs its `till_number`.');
  if (Boolean(account.initiator_name) !== Boolean(secrets.initiator_password)) {
    throw invalid(account.initiator_name ? 'initiator_password' : 'initiator_name', '`initiator_name` and `initiator_password` go together.');
  }
}

const seal = (ctx: AppContext, id: string, secrets: Record<string, string>) => ctx.secrets.encrypt(JSON.stringify(secrets), secretsContext(id));
const unseal = (ctx: AppContext, row: PaymentProviderConfigRow) => JSON.parse(ctx.secrets.decrypt(row.secrets_sealed, secretsContext(row.id))) as Record<string, string>;

async function checkOrganization(ctx: AppContext, scope: Scope, organization: string | null | undefined) {
  if (!organization) return null;
  const found = isIdOf('organization', organization) ? await scoped(ctx.db, scope).selectFrom('organizations').select('id').where('id', '=', organization).executeTakeFirst() : undefined;
  if (!found) throw ApiError.notFound('organization', organization);
  return found.id;
}

export async function getConfigRow(ctx: AppContext, scope: Scope, id: string): Promise<PaymentProviderConfigRow> {
  const row = isIdOf('payment_provider_config', id) ? await repo.findConfig(ctx.db, scope, id) : undefined;
  if (!row) throw ApiError.notFound('payment provider configuration', id);
  return row;
}

export async function createProviderConfig(ctx: AppContext, scope: Scope, input: CreateInput): Promise<PaymentProviderConfig> {
  const { type, name, organization, metadata, external_id, ...fields } = input;
  if (!providerDefinition(type)) throw invalid('type', `This server does not speak to '${type}'.`);
  const { account, secrets } = split(type, fields as Fields);
  if (type === 'mpesa') checkMpesa(account, secrets);
  const organizationId = await checkOrganization(ctx, scope, organization);
  const id = newId('payment_provider_config');
  const learnt = await verifyCredentials(ctx, type, { configId: id, livemode: scope.livemode, account, secrets });
  const now = new Date();
  const row = await repo
    .insertConfig(ctx.db, scope, {
      id,
      type,
      name,
      organization_id: organizationId,
      account: JSON.stringify({ ...account, ...learnt }),
      secret_fields: Object.keys(secrets).sort(),
      secrets_sealed: seal(ctx, id, secrets),
      verified_at: now,
      external_id: external_id ?? null,
      metadata: JSON.stringify(metadata ?? {}),
      created_at: now,
      updated_at: now,
    })
    .catch((err: unknown) => {
      if ((err as { code?: string }).code === '23505') throw ApiError.of('validation_failed', { param: 'external_id', message: 'Another configuration uses this `external_id`.' });
      throw err;
    });
  return serializeProviderConfig(ctx.config.baseUrl, row);
}

export async function retrieveProviderConfig(ctx: AppContext, scope: Scope, id: string): Promise<PaymentProviderConfig> {
  return serializeProviderConfig(ctx.config.baseUrl, await getConfigRow(ctx, scope, id));
}

export async function listProviderConfigs(ctx: AppContext, scope: Scope, filters: { type?: string; organization?: string; status?: string }, page: CursorPageQuery) {
  const result = await repo.listConfigs(ctx.db, scope, filters, page);
  return { ...result, data: result.data.map((row) => serializeProviderConfig(ctx.config.baseUrl, row)) };
}

/** A changed secret is verified first; a configuration that passes is `active` again. */
export async function updateProviderConfig(ctx: AppContext, scope: Scope, id: string, input: UpdateInput): Promise<PaymentProviderConfig> {
  const current = await getConfigRow(ctx, scope, id);
  const { name, metadata, ...fields } = input;
  const changed = split(current.type, fields as Fields);
  const account = { ...(current.account ?? {}), ...changed.account };
  const secrets = { ...unseal(ctx, current), ...changed.secrets };
  if (current.type === 'mpesa') checkMpesa(account, secrets);
  const secretChanged = Object.keys(changed.secrets).length > 0;
  const learnt = secretChanged ? await verifyCredentials(ctx, current.type, { configId: id, livemode: scope.livemode, account, secrets }) : {};
  const row = await ctx.db.transaction().execute(async (trx) => {
    await repo.findConfig(trx, scope, id, true);
    return repo.updateConfig(trx, scope, id, {
      ...(name !== undefined ? { name } : {}),
      ...(metadata !== undefined ? { metadata: JSON.stringify(metadata) } : {}),
      account: JSON.stringify({ ...account, ...learnt }),
      ...(secretChanged
        ? { secrets_sealed: seal(ctx, id, secrets), secret_fields: Object.keys(secrets).sort(), status: 'active' as const, last_error: null, verified_at: new Date() }
        : {}),
    });
  });
  return serializeProviderConfig(ctx.config.baseUrl, row);
}

export async function deleteProviderConfig(ctx: AppContext, scope: Scope, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const row = isIdOf('payment_provider_config', id) ? await repo.findConfig(trx, scope, id, true) : undefined;
    if (!row) throw ApiError.notFound('payment provider configuration', id);
    const use = await repo.configInUse(trx, scope, id);
    if (use === 'settings') throw ApiError.of('provider_config_in_use', { message: 'A payment settings list names this configuration; remove it there first.' });
    if (use === 'pending') throw ApiError.of('provider_config_in_use', { message: 'Payments or refunds still pending depend on this configuration.' });
    const renewing = await savedCardDependents(trx, scope, id);
    if (renewing > 0) {
      const message = `Automatically renewing subscriptions (${renewing}) charge cards kept through this configuration; they must end first.`;
      throw ApiError.of('provider_config_in_use', { message, details: { subscriptions: renewing } });
    }
    // Settled payments keep their history: they forget the configuration, not the provider.
    await scoped(trx, scope).updateTable('payments').set({ provider_config_id: null }).where('provider_config_id', '=', id).execute();
    await scoped(trx, scope).updateTable('refunds').set({ provider_config_id: null }).where('provider_config_id', '=', id).execute();
    await trx.deleteFrom('payment_callback_tokens').where('provider_config_id', '=', id).execute();
    await trx.deleteFrom('payment_notifications').where('provider_config_id', '=', id).execute();
    await repo.deleteConfig(trx, scope, id);
  });
  return { id, object: 'payment_provider_config' as const, deleted: true as const };
}

/** The rows of a settings list, for the settings' own checks. */
export const findConfigsForSettings = (ctx: AppContext, scope: Scope, ids: readonly string[]) => repo.findConfigs(ctx.db, scope, ids);

/**
 * The provider refused a configuration's stored credentials on a later call: it becomes `failing` (checkout
 * skips it; a verified `PATCH` makes it `active` again) and `payments.provider_config.failing` is emitted, once.
 */
export async function markConfigFailing(ctx: AppContext, configId: string, message: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('payment_provider_configs').selectAll().where('id', '=', configId).forUpdate().executeTakeFirst();
    if (!row || row.status === 'failing') return;
    const scope: Scope = { tenantId: row.tenant_id, livemode: row.livemode };
    const lastError = { code: 'credentials_refused', message, at: new Date().toISOString() };
    const failing = await repo.updateConfig(trx, scope, configId, { status: 'failing', last_error: JSON.stringify(lastError) });
    const object = serializeProviderConfig(ctx.config.baseUrl, failing);
    await emitEvent(trx, scope, { type: 'payments.provider_config.failing', subject: configId, object, previousAttributes: { status: 'active' } });
  });
}
