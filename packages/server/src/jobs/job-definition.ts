import { z } from 'zod';

/** How pg-boss retries a job that failed: `limit` more tries, `delaySeconds` apart (doubling with `backoff`). */
export interface RetryPolicy {
  limit: number;
  delaySeconds?: number;
  backoff?: boolean;
}

/**
 * What can be sent: the queue's name, the payload's version and schema, the retry policy and the expiry.
 * Senders import it (`sendInTransaction(trx, [{ job, data }])`); the queue is named after it.
 */
export interface JobType<P extends object = object> {
  /** The queue's name, unique in the process. */
  name: string;
  /** Bumped when the payload changes; the schema keeps accepting payloads of versions still queued. */
  version: number;
  payload: z.ZodType<P>;
  /** pg-boss's default is `{ limit: 2 }` (two more tries, at once). */
  retry: RetryPolicy;
  /** How long one try may run before pg-boss counts it failed (crash recovery); absent: `DEFAULT_EXPIRE_SECONDS`. */
  expireInSeconds?: number;
  /** Cron expression (UTC) for jobs the queue starts by itself (their payload is `{}`). */
  schedule?: string;
}

/**
 * The kind of process a piece of background work runs in (`SVC_ROLE`; `all` runs every kind): `worker` for most,
 * `media` for what needs the media network's disk and binaries, `api` for what flushes an API process's memory.
 */
export type WorkPlace = 'api' | 'worker' | 'media';

/** A job as the queue runs it: its type, how it is fetched, and its handler, which is safe to run twice. */
export interface JobDefinition<P extends object = object> extends JobType<P> {
  /** Which processes work it; absent: `worker`. Every process may send it. */
  runsIn?: Exclude<WorkPlace, 'api'>;
  /** How jobs are fetched: `workers` polling loops, each taking up to `batchSize` jobs every `pollingIntervalSeconds`. */
  work?: { workers?: number; batchSize?: number; pollingIntervalSeconds?: number };
  /** Gets the payloads of a batch, each checked against `payload`. */
  handler: (payloads: P[]) => Promise<void>;
}

const defined = new Map<string, JobType<any>>();

/** Declares a job type; the name is its queue's, so two types may not share one. */
export function defineJob<P extends object>(type: JobType<P>): JobType<P> {
  const existing = defined.get(type.name);
  if (existing && existing !== type) throw new Error(`job ${type.name} is defined twice`);
  defined.set(type.name, type);
  return type;
}

/** Every job type defined so far in this process (import the modules first). */
export const definedJobTypes = (): JobType<any>[] => [...defined.values()];

/** The expiry of a job whose type names none: enough for a handful of queries (pg-boss's own is 15 minutes). */
export const DEFAULT_EXPIRE_SECONDS = 60;

/** pg-boss's options for a job type's retry policy and expiry. */
export function queuePolicy(type: JobType<any>) {
  return {
    retryLimit: type.retry.limit,
    retryDelay: type.retry.delaySeconds ?? 0,
    retryBackoff: type.retry.backoff ?? false,
    expireInSeconds: type.expireInSeconds ?? DEFAULT_EXPIRE_SECONDS,
  };
}

/** The payload of a job the queue's cron starts: nothing. */
export const schedulePayload = () => z.object({});
