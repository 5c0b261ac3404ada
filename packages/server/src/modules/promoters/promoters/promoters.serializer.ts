import type { Promoter } from '@svc/contract';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { PromoterRow } from '../../../db/promoters.schema';
import { balancesOf } from './promoters.repository';

export type Balance = Promoter['balances'][number];

export function serializePromoter(row: PromoterRow, balances: Balance[]): Promoter {
  return {
    id: row.id,
    object: 'promoter',
    livemode: row.livemode,
    organization: row.organization_id,
    kind: row.kind,
    name: row.name,
    email: row.email,
    phone: row.phone,
    customer: row.customer_id,
    status: row.status,
    balances,
    external_id: row.external_id,
    metadata: row.metadata,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Balances of each promoter, read in one query for the page. */
export async function balancesByPromoter(db: Executor, scope: Scope, ids: readonly string[]): Promise<Map<string, Balance[]>> {
  const rows = await balancesOf(db, scope, ids);
  const out = new Map<string, Balance[]>();
  for (const r of rows) out.set(r.promoter_id, [...(out.get(r.promoter_id) ?? []), { currency: r.currency, pending: Number(r.pending), approved: Number(r.approved) }]);
  return out;
}

export async function presentPromoters(db: Executor, scope: Scope, rows: readonly PromoterRow[]): Promise<Promoter[]> {
  const balances = await balancesByPromoter(db, scope, rows.map((r) => r.id));
  return rows.map((r) => serializePromoter(r, balances.get(r.id) ?? []));
}

export const presentPromoter = async (db: Executor, scope: Scope, row: PromoterRow) => (await presentPromoters(db, scope, [row]))[0]!;
