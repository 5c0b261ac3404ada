import type { EventType } from '@svc/contract';
import type { Transaction, Updateable } from 'kysely';
import { emitEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import type { FanbaseRow, SubscriptionRow, SubscriptionsTable } from '../../../db/fanbases.schema';
import type { DB } from '../../../db/schema';
import { syncHoldingEntitlements } from '../../access';
import { findFanbaseRow } from '../fanbases/fanbases.service';
import { lockMembership } from '../memberships/membership-rows.service';
import { settleMembership } from '../memberships/member-entitlements';
import { limitsOf, resourcesOf } from '../tiers/tier-resources';
import { findTier } from '../tiers/tier-rows.service';
import { addDays, nextReminder } from './periods';
import * as repo from './subscriptions.repository';
import { serializeSubscription } from './subscriptions.serializer';

/** What a move does to the subscription's entitlements (source `subscription`, `source_ref` the `sub_`). */
export type EntitlementEffect = 'grant' | 'revoke' | 'expire' | 'keep';

/**
 * Applies one move of the subscription's state in the caller's transaction, with its event (products-api § 2.4):
 * the row, the entitlements (granted or extended to the period's end plus the grace, revoked, or expired), the
 * membership's tier, and `event` with the subscription as the API shows it after the move.
 */
export async function applyMove(
  trx: Transaction<DB>,
  scope: Scope,
  sub: SubscriptionRow,
  changes: Updateable<SubscriptionsTable>,
  event: EventType | null,
  effect: EntitlementEffect,
  now: Date,
): Promise<SubscriptionRow> {
  const row = await repo.updateSubscription(trx, scope, sub.id, { ...changes, updated_at: now });
  const holding = { source: 'subscription' as const, sourceRef: row.id, customer: row.customer };
  if (effect === 'grant') {
    const [fanbase, tier] = await Promise.all([findFanbaseRow(trx, scope, row.fanbase_id), findTier(trx, scope, row.fanbase_id, row.tier_id)]);
    const endsAt = row.current_period_end ? addDays(row.current_period_end, fanbase!.grace_period_days) : null;
    await syncHoldingEntitlements(trx, scope, holding, tier ? await resourcesOf(trx, scope, tier) : [], { endsAt, limits: tier ? limitsOf(tier) : null }, now);
  } else if (effect !== 'keep') {
    await syncHoldingEntitlements(trx, scope, holding, [], { endsAt: null, removedAs: effect === 'expire' ? 'expired' : 'revoked' }, now);
  }
  const membership = await lockMembership(trx, scope, row.membership_id);
  if (membership) await settleMembership(trx, scope, membership, now);
  if (event) {
    const previous: Record<string, unknown> = {};
    for (const key of ['status', 'cancel_at_period_end', 'current_period_end', 'pending_tier'] as const) {
      const column = key === 'pending_tier' ? 'pending_tier_id' : key;
      const before = sub[column];
      const after = row[column];
      if (String(before) !== String(after)) previous[key] = before instanceof Date ? before.toISOString() : before;
    }
    await emitEvent(trx, scope, { type: event, subject: row.id, object: serializeSubscription(row), previousAttributes: previous });
  }
  return row;
}

/** `cancelled` now: the entitlements revoked, nothing more to renew. */
export const cancelNow = (trx: Transaction<DB>, scope: Scope, sub: SubscriptionRow, reason: NonNullable<SubscriptionRow['cancellation_reason']>, now: Date) =>
  applyMove(
    trx,
    scope,
    sub,
    { status: 'cancelled', cancellation_reason: reason, cancelled_at: now, ended_at: now, next_attempt_at: null, checkout_url: null, grace_ends_at: null },
    'fanbases.subscription.cancelled',
    'revoke',
    now,
  );

/** `expired`: its first order was never paid, or the grace ended unpaid; the entitlements end now. */
export const expireNow = (trx: Transaction<DB>, scope: Scope, sub: SubscriptionRow, now: Date) =>
  applyMove(trx, scope, sub, { status: 'expired', ended_at: now, next_attempt_at: null, checkout_url: null }, 'fanbases.subscription.expired', 'expire', now);

/**
 * A renewal left unpaid past the period's `end`: `past_due` until the grace ends, with its next reminder the first
 * one after `from`. The prompt's renewal job and a declined card charge both end here.
 */
export function moveToPastDue(
  trx: Transaction<DB>,
  scope: Scope,
  sub: SubscriptionRow,
  fanbase: Pick<FanbaseRow, 'grace_period_days'>,
  end: Date,
  from: Date,
  now: Date,
) {
  const graceEnd = addDays(end, fanbase.grace_period_days);
  const moved = { status: 'past_due' as const, grace_ends_at: graceEnd, attempts: sub.attempts + 1, next_attempt_at: nextReminder(end, fanbase.grace_period_days, from) ?? graceEnd };
  return applyMove(trx, scope, sub, moved, 'fanbases.subscription.past_due', 'keep', now);
}
