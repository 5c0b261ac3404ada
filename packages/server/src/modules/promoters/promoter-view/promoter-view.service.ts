import type { CursorPageQuery } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { paginate } from '../../../core/pagination';
import { scoped } from '../../../core/scope';
import type { TenantPrincipal } from '../../../core/principal';
import type { PromoterRow } from '../../../db/promoters.schema';
import { findCustomer, findOrganizationsByIds } from '../../identity';
import { listCommissionObjects } from '../ledger/commissions-list.service';
import { listPayoutsOf } from '../payouts/payouts.service';
import { promotersOfCustomer } from '../promoters/promoters.service';
import { balancesByPromoter } from '../promoters/promoters.serializer';
import { listTrackingCodesOf } from '../tracking-codes/tracking-codes.service';

/** A signed-in customer: an identity access token, or a publishable key with a customer token. */
export type PromoterCaller = Extract<TenantPrincipal, { kind: 'user' | 'customer' | 'publishable' }>;
type Page = CursorPageQuery & { promoter?: string };

/** The promoters the caller signs in as (linking those whose email or phone is theirs), narrowed to one when asked. */
async function mine(ctx: AppContext, caller: PromoterCaller, only?: string): Promise<PromoterRow[]> {
  const customerId = caller.kind === 'user' ? caller.customerId : caller.kind === 'customer' ? caller.customer : null;
  const customer = customerId ? await findCustomer(ctx.db, caller.scope, customerId) : undefined;
  if (!customer) return [];
  const rows = await promotersOfCustomer(ctx, caller.scope, customer);
  return only ? rows.filter((r) => r.id === only) : rows;
}

export async function listProfiles(ctx: AppContext, caller: PromoterCaller) {
  const rows = await mine(ctx, caller);
  const balances = await balancesByPromoter(ctx.db, caller.scope, rows.map((r) => r.id));
  const orgs = new Map((await findOrganizationsByIds(ctx.db, caller.scope, [...new Set(rows.map((r) => r.organization_id))])).map((o) => [o.id, o]));
  return rows.map((r) => ({
    id: r.id,
    object: 'promoter_profile' as const,
    name: r.name,
    status: r.status,
    organization: { id: r.organization_id, name: orgs.get(r.organization_id)?.name ?? '', handle: orgs.get(r.organization_id)?.handle ?? null },
    balances: balances.get(r.id) ?? [],
  }));
}

const ids = (rows: PromoterRow[]) => rows.map((r) => r.id);

export async function listMyTrackingCodes(ctx: AppContext, caller: PromoterCaller, { promoter, ...page }: Page) {
  return listTrackingCodesOf(ctx, caller.scope, ids(await mine(ctx, caller, promoter)), page);
}

export async function listMyCommissions(ctx: AppContext, caller: PromoterCaller, { promoter, ...page }: Page) {
  return listCommissionObjects(ctx, caller.scope, { promoters: ids(await mine(ctx, caller, promoter)) }, page);
}

export async function listMyPayouts(ctx: AppContext, caller: PromoterCaller, { promoter, ...page }: Page) {
  return listPayoutsOf(ctx, caller.scope, ids(await mine(ctx, caller, promoter)), page);
}

/** Attributed paid orders: the order's code and status, the covered items, net and commission; never the buyer. */
export async function listMySales(ctx: AppContext, caller: PromoterCaller, { promoter, ...page }: Page) {
  const promoters = ids(await mine(ctx, caller, promoter));
  const q = scoped(ctx.db, caller.scope)
    .selectFrom('promoter_sales')
    .select(['order_id as id', 'order_code', 'order_kind', 'order_status', 'order_created_at', 'items', 'net', 'commission', 'currency'])
    .where('promoter_id', 'in', promoters.length ? promoters : ['']);
  const listed = await paginate(q, 'promoter_sales.order_id', page);
  return {
    ...listed,
    data: listed.data.map((s) => ({
      order: { id: s.id, code: s.order_code, kind: s.order_kind, status: s.order_status, created_at: s.order_created_at.toISOString() },
      items: s.items,
      net: s.net,
      commission: s.commission,
      currency: s.currency,
    })),
  };
}
