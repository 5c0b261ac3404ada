import { sql } from 'kysely';
import { permittedAddresses, UrlRefused } from '../../core/outbound/url-policy';
import type { JobDefinition } from '../../jobs/queue';
import { sendInTransaction } from '../../jobs/send-in-transaction';
import { deliverWebhook, deliveryJobs, type DeliverWebhookJob } from './enqueue-deliveries';
import { postWebhook, type PostResult } from './post-webhook';
import { recordOutcome } from './record-attempt';
import { failOpenDeliveries, findDeliveriesForAttempt, leaseSlots, type DeliveryForAttempt } from './webhook-deliveries.repository';
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
    [address] = await permittedAddresses(url, d.livemode, deps.resolveHost, deps.privateInTest);
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
  const result = await postWebhook(url, deps.agents.for(url, address!), headers, d.envelope, deps.timeoutMs);
  const redirected = result.statusCode !== null && result.statusCode >= 300 && result.statusCode < 400;
  const logged = deps.logsBodyFrom(address!.address) ? result : { ...result, responseBody: null };
  return redirected ? { ...logged, error: 'redirect_not_followed' } : logged;
}

/** The deliveries that got one of their endpoint's slots, in one transaction whatever the endpoints. */
async function lease(deps: WebhookWorkerDeps, deliveries: DeliveryForAttempt[]): Promise<{ leased: DeliveryForAttempt[]; busy: string[] }> {
  const taken = new Set(
    await deps.db.transaction().execute(async (trx) => {
      // A lease lost in a crash only means the delivery is tried later: not worth waiting for the disk.
      await sql`set local synchronous_commit = off`.execute(trx);
      return leaseSlots(trx, deliveries, deps.concurrencyPerEndpoint, deps.leaseSeconds);
    }),
  );
  return { leased: deliveries.filter((d) => taken.has(d.id)), busy: deliveries.filter((d) => !taken.has(d.id)).map((d) => d.id) };
}

/** Attempts the leased deliveries side by side and records each outcome (which frees its slot). */
const attemptAll = (deps: WebhookWorkerDeps, leased: DeliveryForAttempt[]) =>
  Promise.allSettled(leased.map(async (d) => recordOutcome(deps, d, await attempt(deps, d))));

/**
 * Tries queued deliveries once each. Safe to run twice: only a `queued` delivery holding a free slot of its
 * endpoint is attempted. A batch costs one read, one lease transaction, the POSTs, and a share of the writes
 * of the successes finishing meanwhile; a second lease when some found their endpoint's slots busy.
 */
export async function deliverWebhooks(deps: WebhookWorkerDeps, deliveryIds: readonly string[]): Promise<void> {
  const found = (await findDeliveriesForAttempt(deps.db, [...new Set(deliveryIds)])).filter((d) => d.state === 'queued');
  const disabled = new Set(found.filter((d) => d.endpoint_status !== 'enabled').map((d) => d.endpoint_id));
  for (const endpointId of disabled) await failOpenDeliveries(deps.db, endpointId);
  const first = await lease(deps, found.filter((d) => !disabled.has(d.endpoint_id)));
  const results = await attemptAll(deps, first.leased);
  if (first.busy.length > 0) {
    // The endpoint's slots were busy (or another job held the delivery). This batch's attempts have just freed
    // some: one more try now, and what is still busy is looked at again in a second.
    const busy = new Set(first.busy);
    const second = await lease(deps, found.filter((d) => busy.has(d.id)));
    if (second.busy.length > 0) await deps.db.transaction().execute((trx) => sendInTransaction(trx, deliveryJobs(second.busy, 1)));
    results.push(...(await attemptAll(deps, second.leased)));
  }
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  for (const f of failed) deps.log.error({ err: f.reason }, 'webhook delivery failed');
  // pg-boss retries the batch; deliveries already settled are skipped on the retry.
  if (failed.length > 0) throw failed[0]!.reason;
}

export const deliverWebhookJob = (deps: WebhookWorkerDeps): JobDefinition<DeliverWebhookJob> => ({
  ...deliverWebhook,
  // Two loops of 5 jobs each (a job holds one event's deliveries): an endpoint receiving every event gets 5
  // at a time from each loop, within its cap of 10 in flight, which the database keeps across processes.
  work: { workers: 2, batchSize: 5, pollingIntervalSeconds: 0.5 },
  // A batch's POSTs run at once, each within the 10 s timeout: a job still active after 30 s lost its process.
  expireInSeconds: 30,
  // `deliveryId`: a job queued before jobs carried several deliveries.
  handler: (jobs) => deliverWebhooks(deps, jobs.flatMap((j) => ('deliveryIds' in j ? j.deliveryIds : [j.deliveryId]))),
});
