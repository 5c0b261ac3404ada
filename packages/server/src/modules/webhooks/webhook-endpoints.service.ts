import { API_VERSION, WEBHOOK_LIMITS, type CreateWebhookEndpointSchema, type UpdateWebhookEndpointSchema } from '@svc/contract';
import type { z } from 'zod';
import type { AppContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db-errors';
import { ApiError } from '../../core/errors';
import { isIdOf, newId } from '../../core/ids';
import { permittedAddresses, systemResolver, UrlRefused } from '../../core/outbound/url-policy';
import type { Scope } from '../../core/scope';
import type { Database, Executor } from '../../db/database';
import * as repo from './webhook-endpoints.repository';
import { serializeWebhookEndpoint, type WebhookEndpointRow } from './webhook-endpoints.serializer';
import { failOpenDeliveries } from './webhook-deliveries.repository';
import { newWebhookSecret } from './webhook-signature';

type Ctx = Pick<AppContext, 'db' | 'secrets' | 'resolveHost'> & { config?: Pick<AppContext['config'], 'SVC_WEBHOOKS_PRIVATE_IN_TEST'> };
type CreateInput = z.infer<typeof CreateWebhookEndpointSchema>;
type UpdateInput = z.infer<typeof UpdateWebhookEndpointSchema>;

/** Refuses URLs a request must not reach: see core/outbound/url-policy.ts. Checked again at every delivery. */
async function checkUrl(ctx: Ctx, url: string, livemode: boolean): Promise<void> {
  try {
    await permittedAddresses(new URL(url), livemode, ctx.resolveHost ?? systemResolver, ctx.config?.SVC_WEBHOOKS_PRIVATE_IN_TEST);
  } catch (err) {
    if (!(err instanceof UrlRefused)) throw err;
    throw ApiError.of('webhook_url_not_allowed', { message: err.message, param: 'url', details: { reason: err.reason } });
  }
}

const externalIdTaken = (err: unknown) =>
  isUniqueViolation(err, 'webhook_endpoints_external_id') ? ApiError.of('external_id_taken', { param: 'external_id' }) : err;

export async function getEndpointRow(db: Executor, scope: Scope, id: string, forUpdate = false): Promise<WebhookEndpointRow> {
  const row = isIdOf('webhook_endpoint', id) ? await repo.findEndpoint(db, scope, id, { forUpdate }) : undefined;
  if (!row) throw ApiError.notFound('webhook endpoint', id);
  return row;
}

export async function createEndpoint(ctx: Ctx, scope: Scope, input: CreateInput) {
  await checkUrl(ctx, input.url, scope.livemode);
  const id = newId('webhook_endpoint');
  const secret = newWebhookSecret();
  try {
    const row = await repo.insertEndpoint(ctx.db, scope, {
      id,
      url: input.url,
      description: input.description ?? null,
      enabled_events: [...new Set(input.enabled_events)],
      api_version: input.api_version ?? API_VERSION,
      status: 'enabled',
      secret_sealed: ctx.secrets.encrypt(secret, id),
      external_id: input.external_id ?? null,
      metadata: JSON.stringify(input.metadata ?? {}),
    });
    return serializeWebhookEndpoint(row, secret);
  } catch (err) {
    throw externalIdTaken(err);
  }
}

export async function getEndpoint(db: Executor, scope: Scope, id: string) {
  return serializeWebhookEndpoint(await getEndpointRow(db, scope, id));
}

export async function getEndpointByExternalId(db: Executor, scope: Scope, externalId: string) {
  const row = await repo.findEndpointByExternalId(db, scope, externalId);
  if (!row) throw ApiError.notFound('webhook endpoint with external_id', externalId);
  return serializeWebhookEndpoint(row);
}

export async function listEndpoints(db: Executor, scope: Scope, query: Parameters<typeof repo.listEndpoints>[2] & { metadata?: Record<string, string> }) {
  const page = await repo.listEndpoints(db, scope, query, query.metadata);
  return { ...page, data: page.data.map((r) => serializeWebhookEndpoint(r)) };
}

/** `status: disabled` stops every pending delivery; `status: enabled` starts afresh (missed events: replay). */
export async function updateEndpoint(ctx: Ctx & { db: Database }, scope: Scope, id: string, input: UpdateInput) {
  if (input.url !== undefined) await checkUrl(ctx, input.url, scope.livemode);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const row = await getEndpointRow(trx, scope, id, true);
      const statusChange = input.status !== undefined && input.status !== row.status ? input.status : undefined;
      const updated = await repo.updateEndpoint(trx, scope, id, {
        url: input.url,
        enabled_events: input.enabled_events ? [...new Set(input.enabled_events)] : undefined,
        api_version: input.api_version,
        description: input.description,
        external_id: input.external_id,
        metadata: input.metadata ? JSON.stringify(input.metadata) : undefined,
        ...(statusChange === 'disabled' ? { status: 'disabled', disabled_reason: 'manual', disabled_at: new Date() } : {}),
        ...(statusChange === 'enabled' ? { status: 'enabled', disabled_reason: null, disabled_at: null, failing_since: null } : {}),
      });
      if (statusChange === 'disabled') await failOpenDeliveries(trx, id);
      return serializeWebhookEndpoint(updated);
    });
  } catch (err) {
    throw externalIdTaken(err);
  }
}

/** Deletes the endpoint with its deliveries and attempt log; queued jobs then find nothing to do. */
export async function deleteEndpoint(db: Database, scope: Scope, id: string) {
  return db.transaction().execute(async (trx) => {
    const row = await getEndpointRow(trx, scope, id, true);
    await repo.deleteEndpoint(trx, scope, id);
    return serializeWebhookEndpoint(row);
  });
}

/**
 * A new secret; the current one keeps signing beside it for `graceSeconds` (only the latest previous secret
 * is kept: rolling again during a grace period ends the older one).
 */
export async function rollEndpointSecret(ctx: Ctx & { db: Database }, scope: Scope, id: string, graceSeconds?: number) {
  const grace = graceSeconds ?? WEBHOOK_LIMITS.defaultSecretGraceSeconds;
  return ctx.db.transaction().execute(async (trx) => {
    const row = await getEndpointRow(trx, scope, id, true);
    const secret = newWebhookSecret();
    const updated = await repo.updateEndpoint(trx, scope, id, {
      secret_sealed: ctx.secrets.encrypt(secret, id),
      previous_secret_sealed: grace > 0 ? row.secret_sealed : null,
      previous_secret_expires_at: grace > 0 ? new Date(Date.now() + grace * 1000) : null,
    });
    return serializeWebhookEndpoint(updated, secret);
  });
}
