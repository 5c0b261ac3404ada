import type { CursorPageQuery, FanbaseMembership } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import { newId } from '../../../core/ids';
import type { TenantPrincipal } from '../../../core/principal';
import type { Scope } from '../../../core/scope';
import type { FanbaseRow, MembershipRow } from '../../../db/fanbases.schema';
import type { DB } from '../../../db/schema';
import { nowOf } from '../clock';
import { checkCustomerExpand, expandCustomers } from '../customer-expand';
import { fanbaseFor, findPublicFanbase } from '../fanbases/fanbases.service';
import * as tiers from '../tiers/tier-rows.service';
import { requireKnownCustomer, requireOpen } from './fanbase-gates';
import { settleMembership } from './member-entitlements';
import * as repo from './memberships.repository';
import { serializeMembership } from './memberships.serializer';

export async function presentMembership(db: AppContext['db'] | Transaction<DB>, scope: Scope, id: string): Promise<FanbaseMembership> {
  const [view] = await repo.findViews(db, scope, [id]);
  return serializeMembership(view!);
}

/**
 * What ends with a membership (its subscription: refused while paid for, else cancelled), registered by the
 * subscriptions resource: called in the leaving transaction, before the membership changes.
 */
type LeaveHook = (trx: Transaction<DB>, scope: Scope, m: MembershipRow, how: 'left' | 'removed', now: Date) => Promise<void>;
const leaveHooks: LeaveHook[] = [];
export const onMembershipEnding = (hook: LeaveHook) => void leaveHooks.push(hook);

/**
 * Makes the customer an active member (a new membership, or the old one again with a new `joined_at`), in the
 * caller's transaction; `changes` set the source and comp fields. Answers the row and whether it became active now.
 */
export async function activateMembership(
  trx: Transaction<DB>,
  scope: Scope,
  fanbase: FanbaseRow,
  customer: string,
  changes: Partial<Pick<MembershipRow, 'source' | 'comp_tier_id' | 'ends_at' | 'external_id'>> & { metadata?: Record<string, string> },
  now: Date,
): Promise<{ row: MembershipRow; joined: boolean }> {
  const { metadata, ...fields } = changes;
  await repo.insertMembershipIfNew(trx, scope, {
    id: newId('membership'),
    fanbase_id: fanbase.id,
    organization_id: fanbase.organization_id,
    customer,
    status: 'left',
    source: fields.source ?? 'join',
    joined_at: now,
    created_at: now,
    updated_at: now,
  });
  const current = (await repo.findOfCustomer(trx, scope, fanbase.id, customer, { forUpdate: true }))!;
  const joined = current.status !== 'active';
  const row = await repo.updateMembership(trx, scope, current.id, {
    ...fields,
    ...(metadata !== undefined && { metadata: JSON.stringify(metadata) }),
    ...(joined && { status: 'active', joined_at: now, left_at: null }),
    updated_at: now,
  });
  const settled = await settleMembership(trx, scope, row, now, { quiet: joined });
  if (joined) await emitEvent(trx, scope, { type: 'fanbases.membership.joined', subject: row.id, object: await presentMembership(trx, scope, row.id) });
  return { row: settled, joined };
}

/** `POST /v1/public/fanbases/{fanbase}/join`: idempotent; `created` is false for a customer already a member. */
export async function joinFanbase(ctx: AppContext, scope: Scope, ref: string, customer: string) {
  const fanbase = await findPublicFanbase(ctx, scope, ref);
  await requireKnownCustomer(ctx, scope, customer);
  const existing = await repo.findOfCustomer(ctx.db, scope, fanbase.id, customer);
  if (existing?.status === 'active') return { created: false, membership: await presentMembership(ctx.db, scope, existing.id) };
  await requireOpen(ctx, scope, fanbase, 'join');
  const now = nowOf(ctx);
  const { row, joined } = await ctx.db.transaction().execute((trx) => activateMembership(trx, scope, fanbase, customer, { source: 'join', comp_tier_id: null, ends_at: null }, now));
  return { created: joined, membership: await presentMembership(ctx.db, scope, row.id) };
}

/** Ends an active membership in the caller's transaction: its hooks, `left`, its entitlements revoked, the event. */
async function endMembership(trx: Transaction<DB>, scope: Scope, m: MembershipRow, how: 'left' | 'removed', now: Date) {
  for (const hook of leaveHooks) await hook(trx, scope, m, how, now);
  const row = await repo.updateMembership(trx, scope, m.id, { status: 'left', left_at: now, comp_tier_id: null, ends_at: null, updated_at: now });
  await settleMembership(trx, scope, row, now, { quiet: true });
  await emitEvent(trx, scope, { type: 'fanbases.membership.left', subject: m.id, object: await presentMembership(trx, scope, m.id), previousAttributes: { status: 'active' } });
}

/** `DELETE /v1/public/fanbases/{fanbase}/join`: leaving twice changes nothing; never a member is `404`. */
export async function leaveFanbase(ctx: AppContext, scope: Scope, ref: string, customer: string) {
  const fanbase = await findPublicFanbase(ctx, scope, ref);
  const id = await ctx.db.transaction().execute(async (trx) => {
    const m = await repo.findOfCustomer(trx, scope, fanbase.id, customer, { forUpdate: true });
    if (!m) throw ApiError.notFound('membership');
    if (m.status === 'active') await endMembership(trx, scope, m, 'left', nowOf(ctx));
    return m.id;
  });
  return presentMembership(ctx.db, scope, id);
}

export interface CompInput {
  customer: string;
  tier?: string | null;
  ends_at?: string | null;
  external_id?: string;
  metadata?: Record<string, string>;
}

/** `POST /v1/fanbases/{id}/members`: a comp member, with the tier's grants until `ends_at`. */
export async function addMember(ctx: AppContext, caller: TenantPrincipal, fanbaseId: string, input: CompInput) {
  const fanbase = await fanbaseFor(ctx, caller, fanbaseId, 'fanbases:write');
  const customer = await requireKnownCustomer(ctx, caller.scope, input.customer, 'customer');
  const tier = input.tier ? await tiers.findTier(ctx.db, caller.scope, fanbase.id, input.tier) : undefined;
  if (input.tier && !tier) throw ApiError.of('resource_not_found', { param: 'tier', message: `No such membership tier: '${input.tier}'.` });
  const now = nowOf(ctx);
  const endsAt = input.ends_at ? new Date(input.ends_at) : null;
  if (endsAt && endsAt.getTime() <= now.getTime()) throw ApiError.of('validation_failed', { param: 'ends_at', details: { ends_at: ['Must be in the future.'] } });
  try {
    const { row } = await ctx.db.transaction().execute((trx) =>
      activateMembership(trx, caller.scope, fanbase, customer, { source: 'comp', comp_tier_id: tier?.id ?? null, ends_at: endsAt, external_id: input.external_id, metadata: input.metadata }, now),
    );
    return presentMembership(ctx.db, caller.scope, row.id);
  } catch (err) {
    if (isUniqueViolation(err, 'fanbase_memberships_external_id')) throw ApiError.of('external_id_taken', { param: 'external_id' });
    throw err;
  }
}

/** `DELETE /v1/fanbases/{id}/members/{membership}`: `left`, its entitlements revoked, its subscription cancelled now. */
export async function removeMember(ctx: AppContext, caller: TenantPrincipal, fanbaseId: string, membershipId: string) {
  const fanbase = await fanbaseFor(ctx, caller, fanbaseId, 'fanbases:write');
  await ctx.db.transaction().execute(async (trx) => {
    const found = await repo.findMembership(trx, caller.scope, fanbase.id, membershipId);
    if (!found) throw ApiError.notFound('membership', membershipId);
    const m = (await repo.lockMembership(trx, caller.scope, found.id))!;
    if (m.status === 'active') await endMembership(trx, caller.scope, m, 'removed', nowOf(ctx));
  });
  return presentMembership(ctx.db, caller.scope, membershipId);
}

export async function getMember(ctx: AppContext, caller: TenantPrincipal, fanbaseId: string, membershipId: string, expand?: string[]) {
  await checkCustomerExpand(ctx, caller.scope, expand);
  const fanbase = await fanbaseFor(ctx, caller, fanbaseId, 'fanbases:read');
  const view = await repo.findMembership(ctx.db, caller.scope, fanbase.id, membershipId);
  if (!view) throw ApiError.notFound('membership', membershipId);
  return (await expandCustomers(ctx, caller.scope, [serializeMembership(view)], expand))[0]!;
}

export async function listMembers(ctx: AppContext, caller: TenantPrincipal, fanbaseId: string, filters: repo.MemberFilters, page: CursorPageQuery, expand?: string[]) {
  await checkCustomerExpand(ctx, caller.scope, expand);
  const fanbase = await fanbaseFor(ctx, caller, fanbaseId, 'fanbases:read');
  const result = await repo.listMembers(ctx.db, caller.scope, fanbase.id, filters, page);
  return { ...result, data: await expandCustomers(ctx, caller.scope, result.data.map(serializeMembership), expand) };
}

/** `GET /v1/fan/memberships`: the caller's own. */
export async function myMemberships(ctx: AppContext, scope: Scope, customer: string) {
  return { data: (await repo.membershipsOfCustomer(ctx.db, scope, customer)).map(serializeMembership) };
}
