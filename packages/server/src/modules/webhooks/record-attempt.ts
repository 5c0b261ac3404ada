import { aloneOnDeadlock, Batcher } from '../../core/batcher';
import { newId } from '../../core/ids';
import type { Scope } from '../../core/scope';
import type { Database } from '../../db/database';
import { disableEndpoint } from './disable-endpoint';
import type { PostResult } from './post-webhook';
import { nextAttemptAt, RETRY_WINDOW_MS } from './retry-schedule';
import { insertAttempt } from './webhook-attempts.repository';
import { finishAttempt, recordSuccesses, type DeliveryForAttempt, type Success } from './webhook-deliveries.repository';
import type { WebhookWorkerDeps } from './webhook-worker-deps';

const succeeded = (r: PostResult) => r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300 && !r.error;

// One batch per connection pool, like every process's other batched writes.
const successBatches = new WeakMap<Database, Batcher<Success, undefined>>();

function recordSuccess(deps: WebhookWorkerDeps, d: DeliveryForAttempt, result: PostResult): Promise<undefined> {
  let batch = successBatches.get(deps.db);
  if (!batch) {
    const db = deps.db;
    batch = new Batcher(aloneOnDeadlock(async (all: Success[]) => (await recordSuccesses(db, all), all.map(() => undefined))));
    successBatches.set(db, batch);
  }
  const now = deps.clock();
  return batch.add({
    attemptId: newId('webhook_attempt'),
    delivery: d,
    attempt: d.attempt_count + 1,
    firstAttemptAt: d.first_attempt_at ?? now,
    statusCode: result.statusCode!,
    latencyMs: result.latencyMs,
    responseBody: result.responseBody,
    at: now,
  });
}

/** A failed attempt: logged, then a retry by the schedule, or the endpoint disabled. One transaction. */
async function recordFailure(deps: WebhookWorkerDeps, d: DeliveryForAttempt, result: PostResult): Promise<void> {
  const scope: Scope = { tenantId: d.tenant_id, livemode: d.livemode };
  const now = deps.clock();
  const attemptNo = d.attempt_count + 1;
  const firstAttemptAt = d.first_attempt_at ?? now;
  const gone = result.statusCode === 410;
  const next = gone ? null : nextAttemptAt(attemptNo, firstAttemptAt, now, deps.random);
  await deps.db.transaction().execute(async (trx) => {
    const { failing_since: failingSince } = await trx
      .updateTable('webhook_endpoints')
      .where('id', '=', d.endpoint_id)
      .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(now)) }))
      .returning('failing_since')
      .executeTakeFirstOrThrow();
    await insertAttempt(trx, {
      id: newId('webhook_attempt'),
      tenant_id: d.tenant_id,
      livemode: d.livemode,
      endpoint_id: d.endpoint_id,
      delivery_id: d.id,
      event_id: d.event_id,
      event_type: d.event_type,
      attempt: attemptNo,
      url: d.url,
      status_code: result.statusCode,
      succeeded: false,
      latency_ms: result.latencyMs,
      response_body: result.responseBody,
      error: result.error ?? (gone ? 'gone: endpoint disabled' : `http_${result.statusCode}`),
      next_attempt_at: next,
      created_at: now,
    });
    await finishAttempt(trx, d.id, { state: next ? 'pending' : 'failed', attemptCount: attemptNo, firstAttemptAt, nextAttemptAt: next });
    if (gone) await disableEndpoint(trx, scope, d.endpoint_id, 'gone', now);
    else if (failingSince) {
      // Failing for 3 days, or this delivery used its whole 72-hour window with no success anywhere since it began.
      const failedForDays = now.getTime() - failingSince.getTime() >= RETRY_WINDOW_MS;
      const windowSpent = next === null && failingSince <= firstAttemptAt;
      if (failedForDays || windowSpent) await disableEndpoint(trx, scope, d.endpoint_id, 'failing', now);
    }
  });
}

/**
 * Logs the attempt and decides what comes next: done, a retry by the schedule, or disabling the endpoint.
 * Successes, the usual case, are written together with the others finishing meanwhile.
 */
export const recordOutcome = (deps: WebhookWorkerDeps, d: DeliveryForAttempt, result: PostResult): Promise<void> =>
  succeeded(result) ? recordSuccess(deps, d, result) : recordFailure(deps, d, result);
