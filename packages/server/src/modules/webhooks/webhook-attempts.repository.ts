import type { CursorPageQuery, WebhookAttempt } from '@svc/contract';
import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database';
import type { WebhookAttemptsTable } from '../../db/events-webhooks.schema';
import { paginate } from '../../core/pagination';
import { scoped, type Scope } from '../../core/scope';

export async function insertAttempt(db: Executor, attempt: Insertable<WebhookAttemptsTable>): Promise<void> {
  await db.insertInto('webhook_attempts').values(attempt).execute();
}

export async function listAttempts(db: Executor, scope: Scope, endpointId: string, page: CursorPageQuery & { event?: string }) {
  let q = scoped(db, scope).selectFrom('webhook_attempts').selectAll().where('endpoint_id', '=', endpointId);
  if (page.event) q = q.where('event_id', '=', page.event);
  const result = await paginate(q, 'webhook_attempts.id', page);
  return { ...result, data: result.data.map(serializeAttempt) };
}

export function serializeAttempt(row: Selectable<WebhookAttemptsTable>): WebhookAttempt {
  return {
    id: row.id,
    object: 'webhook_attempt',
    livemode: row.livemode,
    webhook_endpoint: row.endpoint_id,
    event: row.event_id,
    event_type: row.event_type,
    attempt: row.attempt,
    url: row.url,
    status_code: row.status_code,
    succeeded: row.succeeded,
    latency_ms: row.latency_ms,
    response_body: row.response_body,
    error: row.error,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    created_at: new Date(row.created_at).toISOString(),
  };
}
