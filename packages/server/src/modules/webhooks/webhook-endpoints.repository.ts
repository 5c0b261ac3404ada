import { sql, type Insertable, type Updateable } from 'kysely';
import type { CursorPageQuery } from '@svc/contract';
import type { Executor } from '../../db/database';
import type { WebhookEndpointsTable } from '../../db/events-webhooks.schema';
import { paginate, whereMetadata } from '../../core/pagination';
import { scoped, type Scope } from '../../core/scope';
import type { WebhookEndpointRow } from './webhook-endpoints.serializer';

export type NewEndpoint = Omit<Insertable<WebhookEndpointsTable>, 'tenant_id' | 'livemode'>;

export async function insertEndpoint(db: Executor, scope: Scope, endpoint: NewEndpoint): Promise<WebhookEndpointRow> {
  return scoped(db, scope).insertInto('webhook_endpoints', endpoint).returningAll().executeTakeFirstOrThrow();
}

export async function findEndpoint(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}) {
  let q = scoped(db, scope).selectFrom('webhook_endpoints').selectAll().where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findEndpointByExternalId(db: Executor, scope: Scope, externalId: string) {
  return scoped(db, scope).selectFrom('webhook_endpoints').selectAll().where('external_id', '=', externalId).executeTakeFirst();
}

export async function listEndpoints(db: Executor, scope: Scope, page: CursorPageQuery, metadata?: Record<string, string>) {
  const q = whereMetadata(scoped(db, scope).selectFrom('webhook_endpoints').selectAll(), 'webhook_endpoints.metadata', metadata);
  return paginate(q, 'webhook_endpoints.id', page);
}

export async function updateEndpoint(db: Executor, scope: Scope, id: string, changes: Updateable<WebhookEndpointsTable>) {
  return scoped(db, scope)
    .updateTable('webhook_endpoints')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteEndpoint(db: Executor, scope: Scope, id: string): Promise<void> {
  await scoped(db, scope).deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}
