import type { AppContext } from '../core/context';
import type { ModuleWorker } from '../core/modules/module-definition';
import type { JobDefinition } from '../jobs/queue';
import { purgeIdempotencyKeysJob } from '../jobs/purge-idempotency-keys.job';
import type { RolePlan } from './roles';

/**
 * Every job definition (each process creates the queues it may send to), marked with where it is worked, and
 * the module workers this role runs. A module worker's jobs are worked where the worker runs.
 */
export function backgroundJobs(ctx: AppContext, plan: RolePlan): { workers: ModuleWorker[]; definitions: JobDefinition<any>[] } {
  const all = ctx.modules.flatMap((m) => (m.worker ? [m.worker(ctx)] : []));
  const definitions: JobDefinition<any>[] = [purgeIdempotencyKeysJob(ctx.db, ctx.config.SVC_RETAIN_IDEMPOTENCY_HOURS)];
  for (const m of ctx.modules) definitions.push(...(m.jobs?.(ctx) ?? []));
  for (const w of all) {
    const place = w.runsIn ?? 'worker';
    for (const job of w.jobs ?? []) definitions.push(place === 'api' ? job : { ...job, runsIn: place });
  }
  return { workers: all.filter((w) => plan.places.includes(w.runsIn ?? 'worker')), definitions };
}
