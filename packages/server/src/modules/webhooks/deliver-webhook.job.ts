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

/** The deliveries that got one of their endpoint's slots, in one statement whatever the endpoints. */
async function lease(deps: WebhookWorkerDeps, deliveries: DeliveryForAttempt[]): Promise<{ leased: DeliveryForAttempt[]; busy: string[] }> {
  const taken = new Set(await leaseSlots(deps.db, deliveries, deps.concurrencyPerEndpoint, deps.leaseSeconds));
  return { leased: deliveries.filter((d) => taken.has(d.id)), busy: deliveries.filter((d) => !taken.has(d.id)).map((d) => d.id) };
}

/** How long a delivery waits in its job for a slot of its endpoint before it is queued again for a second later. */
const SLOT_WAIT_MS = 1_000;
/** Another process may free a slot too, which this one does not hear of: look again this often. */
const SLOT_POLL_MS = 100;

/** One attempt, its outcome recorded (which frees its slot); then a delivery waiting for the slot is woken. */
async function attemptOne(deps: WebhookWorkerDeps, d: DeliveryForAttempt): Promise<unknown> {
  try {
    await recordOutcome(deps, d, await attempt(deps, d));
    return undefined;
  } catch (err) {
    return err ?? new Error('webhook attempt failed');
  } finally {
    deps.freedSlots.freed(d.endpoint_id);
  }
}

/**
 * Leases one endpoint's waiting deliveries as its slots free, starting each attempt at once; what is still
 * waiting after `SLOT_WAIT_MS` is returned, to be queued again.
 */
async function leaseAsSlotsFree(deps: WebhookWorkerDeps, waiting: DeliveryForAttempt[], attempts: Promise<unknown>[]): Promise<string[]> {
  const endpointId = waiting[0]!.endpoint_id;
  const until = Date.now() + SLOT_WAIT_MS;
  let left = waiting;
  while (left.length > 0 && Date.now() < until) {
    await deps.freedSlots.next(endpointId, Math.min(SLOT_POLL_MS, until - Date.now()));
    const { leased, busy } = await lease(deps, left);
    attempts.push(...leased.map((d) => attemptOne(deps, d)));
    const stillBusy = new Set(busy);
    left = left.filter((d) => stillBusy.has(d.id));
  }
  return left.map((d) => d.id);
}

/**
 * Tries queued deliveries once each. Safe to run twice: only a `queued` delivery holding a free slot of its
 * endpoint is attempted. A batch costs one read, one lease transaction, the POSTs, and a share of the writes
 * of the successes finishing meanwhile. A delivery whose endpoint has all its slots in use waits for the next
 * one to free, in this job, and leases it then: an endpoint's attempts follow one another without waiting for
 * a whole batch to end.
 */
export async function deliverWebhooks(deps: WebhookWorkerDeps, deliveryIds: readonly string[]): Promise<void> {
  const found = (await findDeliveriesForAttempt(deps.db, [...new Set(deliveryIds)])).filter((d) => d.state === 'queued');
  const disabled = new Set(found.filter((d) => d.endpoint_status !== 'enabled').map((d) => d.endpoint_id));
  for (const endpointId of disabled) await failOpenDeliveries(deps.db, endpointId);
  const candidates = found.filter((d) => !disabled.has(d.endpoint_id));
  const first = await lease(deps, candidates);
  const attempts = first.leased.map((d) => attemptOne(deps, d));
  const busy = new Set(first.busy);
  const waiting = new Map<string, DeliveryForAttempt[]>();
  for (const d of candidates.filter((c) => busy.has(c.id))) waiting.set(d.endpoint_id, [...(waiting.get(d.endpoint_id) ?? []), d]);
  const requeue = (await Promise.all([...waiting.values()].map((group) => leaseAsSlotsFree(deps, group, attempts)))).flat();
  if (requeue.length > 0) await deps.db.transaction().execute((trx) => sendInTransaction(trx, deliveryJobs(requeue, 1)));
  const failed = (await Promise.all(attempts)).filter((err) => err !== undefined);
  for (const err of failed) deps.log.error({ err }, 'webhook delivery failed');
  // pg-boss retries the batch; deliveries already settled are skipped on the retry.
  if (failed.length > 0) throw failed[0];
}

export const deliverWebhookJob = (deps: WebhookWorkerDeps): JobDefinition<DeliverWebhookJob> => ({
  ...deliverWebhook,
  // Two loops of 5 jobs each (a job holds one event's deliveries): an endpoint receiving every event gets 5
  // at a time from each loop, within its cap of 10 in flight, which the database keeps across processes; a
  // delivery over the cap waits in its job for the next slot to free.
  work: { workers: 2, batchSize: 5, pollingIntervalSeconds: 0.5 },
  // A batch's POSTs run at once, each within the 10 s timeout: a job still active after 30 s lost its process.
  expireInSeconds: 30,
  // `deliveryId`: a job queued before jobs carried several deliveries.
  handler: (jobs) => deliverWebhooks(deps, jobs.flatMap((j) => ('deliveryIds' in j ? j.deliveryIds : [j.deliveryId]))),
});
