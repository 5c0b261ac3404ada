import type { EntitlementLimitsInput } from '@svc/contract';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { TierRow } from '../../../db/fanbases.schema';
import { publishedContentAssets } from '../../creators';

export type Resource = { type: 'ls' | 'ast'; id: string };

/** What a tier's holders are entitled to: its streams and assets, and every item asset of its published content. */
export async function resourcesOf(db: Executor, scope: Scope, tier: TierRow): Promise<Resource[]> {
  const contents = await publishedContentAssets(db, scope, tier.grants.filter((g) => g.type === 'cnt').map((g) => g.id));
  const out = new Map<string, Resource>();
  for (const g of tier.grants) {
    const list: Resource[] = g.type === 'cnt' ? (contents.get(g.id) ?? []).map((id) => ({ type: 'ast', id })) : [{ type: g.type, id: g.id }];
    for (const r of list) out.set(`${r.type}:${r.id}`, r);
  }
  return [...out.values()];
}

export const limitsOf = (tier: TierRow) => (tier.limits as EntitlementLimitsInput | null) ?? null;
