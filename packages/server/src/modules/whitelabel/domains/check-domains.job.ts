import type { AppContext } from '../../../core/context';
import { defineJob, schedulePayload } from '../../../jobs/job-definition';
import type { JobDefinition } from '../../../jobs/queue';
import { checkDomain } from './check-domain';
import * as repo from './domains.repository';

/** Every minute: the domains whose next check is due (each backs off on its own, `next_check_at`). */
export const checkDomains = defineJob({
  name: 'whitelabel-check-domains',
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 1 },
  expireInSeconds: 300,
  schedule: '* * * * *',
});

/** Checks each due domain; one that fails to check (a claim lost, a timeout) waits for its next turn. Returns how many were checked. */
export async function checkDueDomains(ctx: AppContext): Promise<number> {
  const now = ctx.clock ? ctx.clock() : new Date();
  const due = await repo.findDueDomains(ctx.db, now);
  let checked = 0;
  for (const d of due) {
    try {
      await checkDomain(ctx, { tenantId: d.tenant_id, livemode: d.livemode }, d.id);
      checked++;
    } catch (err) {
      ctx.log.warn({ err: (err as Error).message, domain: d.id }, 'domain check failed');
    }
  }
  return checked;
}

export const checkDomainsJob = (ctx: AppContext): JobDefinition => ({ ...checkDomains, handler: async () => void (await checkDueDomains(ctx)) });
