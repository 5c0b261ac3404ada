import { defineJob, schedulePayload, type JobDefinition } from '../../../jobs/job-definition';
import type { Scope } from '../../../core/scope';
import type { AccessDeps } from '../access-deps';
import { endSessionsOf } from '../sessions/session-rows.service';
import * as repo from './entitlements.repository';
import { emitEntitlementEvent } from './entitlements.serializer';

export const EXPIRE_ENTITLEMENTS_QUEUE = 'access-expire-entitlements';

/** The expiry sweep, every minute. */
export const expireEntitlements = defineJob({
  name: EXPIRE_ENTITLEMENTS_QUEUE,
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 2 },
  schedule: '* * * * *',
});

/** Records one entitlement's expiry if it is still due: safe to run twice, and a later `ends_at` makes it a no-op. */
async function expireOne(deps: AccessDeps, scope: Scope, id: string, now: Date): Promise<boolean> {
  const expired = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.findEntitlement(trx, scope, id, { forUpdate: true });
    if (!row || row.status !== 'active' || !row.ends_at || row.ends_at.getTime() > now.getTime()) return null;
    const updated = await repo.updateEntitlement(trx, scope, id, { status: 'expired' }, now);
    await endSessionsOf(trx, scope, id, 'entitlement_inactive', now);
    return emitEntitlementEvent(trx, scope, 'access.entitlement.expired', updated, now, { status: 'active' });
  });
  if (expired) deps.entitlementCache.changed(scope, expired);
  return expired !== null;
}

/** Every active entitlement whose end has passed becomes `expired` with `access.entitlement.expired`. Returns how many. */
export async function expireDueEntitlements(deps: AccessDeps): Promise<number> {
  const now = deps.now();
  let expired = 0;
  for (;;) {
    const due = await repo.findDueExpiries(deps.db, now);
    for (const e of due) {
      if (await expireOne(deps, { tenantId: e.tenant_id, livemode: e.livemode }, e.id, now)) expired++;
    }
    if (due.length < 500) return expired;
  }
}

/** The expiry sweep, every minute. Reads never show an `active` entitlement past its end meanwhile. */
export const expireEntitlementsJob = (deps: AccessDeps): JobDefinition => ({
  ...expireEntitlements,
  handler: async () => {
    await expireDueEntitlements(deps);
  },
});
