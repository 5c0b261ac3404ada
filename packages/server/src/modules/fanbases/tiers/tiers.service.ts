import type { CursorPageQuery, EntitlementLimitsInput, MembershipTier, TierInterval } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { newId } from '../../../core/ids';
import type { TenantPrincipal } from '../../../core/principal';
import type { Scope } from '../../../core/scope';
import type { FanbaseRow, TierGrant, TierRow } from '../../../db/fanbases.schema';
import type { DB } from '../../../db/schema';
import { jobOf, sendInTransaction } from '../../../jobs/send-in-transaction';
import { nowOf } from '../clock';
import { fanbaseFor } from '../fanbases/fanbases.service';
import { syncTier } from './sync-tier.job';
import * as repo from './tiers.repository';
import { serializeTier } from './tiers.serializer';

export interface TierInput {
  name?: string;
  description?: string | null;
  price?: number;
  interval?: TierInterval | null;
  benefits?: string[];
  grants?: TierGrant[];
  limits?: EntitlementLimitsInput | null;
  max_members?: number | null;
  status?: TierRow['status'];
  position?: number;
  external_id?: string | null;
  metadata?: Record<string, string>;
}

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });
const PREFIX = { ls: 'ls_', ast: 'ast_', cnt: 'cnt_' } as const;

/** A free tier has no interval; a paid one needs one; each grant's id names its type. */
function checkShape(price: number, interval: TierInterval | null, grants: readonly TierGrant[]) {
  if (price === 0 && interval !== null) throw invalid('interval', 'The free tier (price 0) has no interval.');
  if (price > 0 && interval === null) throw invalid('interval', 'A paid tier needs an interval: month, year or one_time.');
  grants.forEach((g, i) => {
    if (!g.id.startsWith(PREFIX[g.type])) throw invalid(`grants.${i}.id`, `A grant of type ${g.type} names an id starting ${PREFIX[g.type]}.`);
  });
}

const conflictOf = (err: unknown) => {
  if (isUniqueViolation(err, 'membership_tiers_published_free')) return ApiError.of('free_tier_exists', { param: 'status', message: 'The fanbase already has a published free tier.' });
  if (isUniqueViolation(err, 'membership_tiers_external_id')) return ApiError.of('external_id_taken', { param: 'external_id' });
  return err;
};

export async function presentTiers(ctx: AppContext, rows: TierRow[]): Promise<MembershipTier[]> {
  const counts = await repo.memberCounts(ctx.db, rows.map((r) => r.id));
  return rows.map((r) => serializeTier(r, counts.get(r.id) ?? 0));
}

const syncJob = (scope: Scope, tier: TierRow) => jobOf(syncTier, { tenant_id: scope.tenantId, livemode: scope.livemode, fanbase: tier.fanbase_id, tier: tier.id });

async function write(ctx: AppContext, work: (trx: Transaction<DB>) => Promise<TierRow>): Promise<MembershipTier> {
  try {
    const row = await ctx.db.transaction().execute(work);
    return (await presentTiers(ctx, [row]))[0]!;
  } catch (err) {
    throw conflictOf(err);
  }
}

export async function createTier(ctx: AppContext, caller: TenantPrincipal, fanbaseId: string, input: TierInput & { name: string; price: number }) {
  const fanbase = await fanbaseFor(ctx, caller, fanbaseId, 'fanbases:write');
  const interval = input.interval ?? null;
  const grants = input.grants ?? [];
  checkShape(input.price, interval, grants);
  const now = nowOf(ctx);
  return write(ctx, async (trx) => {
    const row = await repo.insertTier(trx, caller.scope, {
      id: newId('membership_tier'),
      fanbase_id: fanbase.id,
      name: input.name,
      description: input.description ?? null,
      price: input.price,
      currency: fanbase.currency,
      interval,
      benefits: JSON.stringify(input.benefits ?? []),
      grants: JSON.stringify(grants),
      limits: JSON.stringify(input.limits ?? null),
      max_members: input.max_members ?? null,
      status: input.status ?? 'draft',
      position: input.position ?? 0,
      external_id: input.external_id ?? null,
      metadata: JSON.stringify(input.metadata ?? {}),
      created_at: now,
      updated_at: now,
    });
    // A published free tier is every member's at once.
    if (row.status === 'published' && Number(row.price) === 0) await sendInTransaction(trx, [syncJob(caller.scope, row)]);
    return row;
  });
}

async function tierOf(ctx: AppContext, caller: TenantPrincipal, fanbaseId: string, tierId: string, permission: 'fanbases:read' | 'fanbases:write'): Promise<{ fanbase: FanbaseRow; tier: TierRow }> {
  const fanbase = await fanbaseFor(ctx, caller, fanbaseId, permission);
  const tier = await repo.findTier(ctx.db, caller.scope, fanbase.id, tierId);
  if (!tier) throw ApiError.notFound('membership_tier', tierId);
  return { fanbase, tier };
}

export async function getTier(ctx: AppContext, caller: TenantPrincipal, fanbaseId: string, tierId: string) {
  return (await presentTiers(ctx, [(await tierOf(ctx, caller, fanbaseId, tierId, 'fanbases:read')).tier]))[0]!;
}

export async function listTiers(ctx: AppContext, caller: TenantPrincipal, fanbaseId: string, status: TierRow['status'] | undefined, page: CursorPageQuery) {
  const fanbase = await fanbaseFor(ctx, caller, fanbaseId, 'fanbases:read');
  const result = await repo.listTiers(ctx.db, caller.scope, fanbase.id, status, page);
  return { ...result, data: await presentTiers(ctx, result.data) };
}

/**
 * Changes a tier. Its `interval` is fixed once it has had a subscription; a new `price` is for new subscriptions
 * (running ones keep their `amount`). A change of what it grants, or of whether it is the published free tier,
 * reaches current holders through the sync job.
 */
export async function updateTier(ctx: AppContext, caller: TenantPrincipal, fanbaseId: string, tierId: string, input: TierInput) {
  const { fanbase } = await tierOf(ctx, caller, fanbaseId, tierId, 'fanbases:write');
  return write(ctx, async (trx) => {
    const current = (await repo.findTier(trx, caller.scope, fanbase.id, tierId, { forUpdate: true }))!;
    const price = input.price ?? Number(current.price);
    const interval = input.interval !== undefined ? input.interval : current.interval;
    if (interval !== current.interval && current.subscribed_at) throw invalid('interval', 'The tier has had subscriptions: its interval is fixed.');
    checkShape(price, interval, input.grants ?? current.grants);
    const { metadata, benefits, grants, limits, ...fields } = input;
    const row = await repo.updateTier(trx, caller.scope, current.id, {
      ...fields,
      interval,
      ...(metadata !== undefined && { metadata: JSON.stringify(metadata) }),
      ...(benefits !== undefined && { benefits: JSON.stringify(benefits) }),
      ...(grants !== undefined && { grants: JSON.stringify(grants) }),
      ...(limits !== undefined && { limits: JSON.stringify(limits) }),
      updated_at: nowOf(ctx),
    });
    const holdersChange =
      JSON.stringify(row.grants) !== JSON.stringify(current.grants) ||
      JSON.stringify(row.limits) !== JSON.stringify(current.limits) ||
      row.status !== current.status ||
      Number(row.price) !== Number(current.price);
    if (holdersChange) await sendInTransaction(trx, [syncJob(caller.scope, row)]);
    return row;
  });
}

/** The tier's first subscription: from then on its interval is fixed. */
export async function markTierSubscribed(trx: Transaction<DB>, scope: Scope, tier: TierRow, now: Date): Promise<void> {
  if (!tier.subscribed_at) await repo.updateTier(trx, scope, tier.id, { subscribed_at: now });
}
