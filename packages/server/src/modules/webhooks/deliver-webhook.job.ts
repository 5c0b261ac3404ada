import { newId } from '../../core/ids';
import { permittedAddresses, UrlRefused } from '../../core/outbound/url-policy';
import type { Scope } from '../../core/scope';
import type { JobDefinition } from '../../jobs/queue';
import { QUEUE_NAMES } from '../../jobs/queue-names';
import { sendInTransaction } from '../../jobs/send-in-transaction';
import { disableEndpoint } from './disable-endpoint';
import type { DeliverWebhookJob } from './enqueue-deliveries';
import { postWebhook, type PostResult } from './post-webhook';
import { nextAttemptAt, RETRY_WINDOW_MS } from './retry-schedule';
import { insertAttempt } from './webhook-attempts.repository';
import {
  failOpenDeliveries,
  findDeliveryForAttempt,
  finishAttempt,
  leaseSlot,
  type DeliveryForAttempt,
} from './webhook-deliveries.repository';
import { deliveryHeaders } from './webhook-signature';
import type { WebhookWorkerDeps } from './webhook-worker-deps';

/** Signing secrets in force: the current one, then the previous one while its grace period lasts. */
function signingSecrets(deps: WebhookWorkerDeps, d: DeliveryForAttempt): string[] {
  const secrets = [deps.secrets.decrypt(d.secret_sealed, d.endpoint_id)];
  if (d.previous_secret_sealed && d.previous_secret_expires_at && d.previous_secret_expires_at > new Date()) {
    secrets.push(deps.secrets.decrypt(d.previous_secret_sealed, d.endpoint_id));
  }
  return secrets;
}

/** One HTTP attempt. The URL is checked again now and the request goes to the address just checked. */
async function attempt(deps: WebhookWorkerDeps, d: DeliveryForAttempt): Promise<PostResult> {
  const url = new URL(d.url);
  let address;
  try {
    [address] = await permittedAddresses(url, d.livemode, deps.resolveHost);
  } catch (err) {
    if (!(err instanceof UrlRefused)) throw err;
    return { statusCode: null, latencyMs: 0, responseBody: null, error: `url_not_allowed: ${err.message}` };
  }
  const headers = deliveryHeaders({
    eventId: d.event_id,
    eventType: d.event_type,
    body: d.envelope,
    secrets: signingSecrets(deps, d),
    timestamp: Math.floor(Date.now() / 1000),
  });
  const result = await postWebhook(url, address!, headers, d.envelope, deps.timeoutMs);
  const redirected = result.statusCode !== null && result.statusCode >= 300 && result.statusCode < 400;
  return redirected ? { ...result, error: 'redirect_not_followed' } : result;
}

/** Logs the attempt and decides what comes next: done, a retry by the schedule, or disabling the endpoint. */
async function recordOutcome(deps: WebhookWorkerDeps, d: DeliveryForAttempt, result: PostResult): Promise<void> {
  const scope: Scope = { tenantId: d.tenant_id, livemode: d.livemode };
  const now = deps.clock();
  const attemptNo = d.attempt_count + 1;
  const firstAttemptAt = d.first_attempt_at ?? now;
  const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300 && !result.error;
  const gone = result.statusCode === 410;
  const next = succeeded || gone ? null : nextAttemptAt(attemptNo, firstAttemptAt, now, deps.random);
  await deps.db.transaction().execute(async (trx) => {
    const endpoint = trx.updateTable('webhook_endpoints').where('id', '=', d.endpoint_id);
    const { failing_since: failingSince } = succeeded
      ? await endpoint.set({ failing_since: null }).returning('failing_since').executeTakeFirstOrThrow()
      : await endpoint
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
      succeeded,
      latency_ms: result.latencyMs,
      response_body: result.responseBody,
      error: result.error ?? (succeeded ? null : gone ? 'gone: endpoint disabled' : `http_${result.statusCode}`),
      next_attempt_at: next,
      created_at: now,
    });
    await finishAttempt(trx, d.id, {
      state: succeeded ? 'succeeded' : next ? 'pending' : 'failed',
      attemptCount: attemptNo,
      firstAttemptAt,
      nextAttemptAt: next,
    });
    if (gone) await disableEndpoint(trx, scope, d.endpoint_id, 'gone', now);
    else if (!succeeded && failingSince) {
      // Failing for 3 days, or this delivery used its whole 72-hour window with no success anywhere since it began.
      const failedForDays = now.getTime() - failingSince.getTime() >= RETRY_WINDOW_MS;
      const windowSpent = next === null && failingSince <= firstAttemptAt;
      if (failedForDays || windowSpent) await disableEndpoint(trx, scope, d.endpoint_id, 'failing', now);
    }
  });
}

/** Tries a queued delivery once. Safe to run twice: only a `queued` delivery holding a free slot is attempted. */
export async function deliverWebhook(deps: WebhookWorkerDeps, deliveryId: string): Promise<void> {
  const d = await findDeliveryForAttempt(deps.db, deliveryId);
  if (!d || d.state !== 'queued') return;
  if (d.endpoint_status !== 'enabled') return failOpenDeliveries(deps.db, d.endpoint_id);
  const leased = await deps.db.transaction().execute((trx) => leaseSlot(trx, d, deps.concurrencyPerEndpoint, deps.leaseSeconds));
  if (!leased) {
    // Every slot of the endpoint is busy (or another job holds this delivery): look again in a second.
    await deps.db.transaction().execute((trx) =>
      sendInTransaction(trx, [{ name: QUEUE_NAMES.deliverWebhook, data: { deliveryId } satisfies DeliverWebhookJob, startAfter: 1 }]),
    );
    return;
  }
  await recordOutcome(deps, d, await attempt(deps, d));
}

export const deliverWebhookJob = (deps: WebhookWorkerDeps): JobDefinition<DeliverWebhookJob> => ({
  name: QUEUE_NAMES.deliverWebhook,
  // Up to 40 requests in flight per process; each endpoint's cap of 10 is kept in the database, across processes.
  work: { workers: 4, batchSize: 10, pollingIntervalSeconds: 0.5 },
  handler: async (jobs) => {
    const results = await Promise.allSettled(jobs.map((j) => deliverWebhook(deps, j.deliveryId)));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    for (const f of failed) deps.log.error({ err: f.reason }, 'webhook delivery job failed');
    // pg-boss retries the batch; deliveries already settled are skipped on the retry.
    if (failed.length > 0) throw failed[0]!.reason;
  },
});
