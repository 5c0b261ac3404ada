import type { EntitlementLimitsInput } from '@svc/contract';
import type { EntitlementLimitsColumn } from '../../../db/access.schema';
import type { ProductGrantColumn, ProductRow } from '../../../db/commerce.schema';
import type { Executor } from '../../../db/database';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import { playableExists } from '../../streams';

export const invalid = (param: string, message: string, details?: Record<string, unknown>) =>
  ApiError.of('validation_failed', { param, message, details: details ?? { [param]: [message] } });

export const skuTaken = (sku: string, param = 'sku') => ApiError.of('sku_taken', { param, message: `Another variant already uses the SKU '${sku}'.` });

/** SKUs repeated within one request, compared without case, as the unique index compares them. */
export function checkSkusDistinct(skus: readonly string[]) {
  const seen = new Set<string>();
  skus.forEach((sku, i) => {
    const key = sku.toLowerCase();
    if (seen.has(key)) throw skuTaken(sku, `variants.${i}.sku`);
    seen.add(key);
  });
}

/** Grants are for digital products only, and each names a live stream or asset of the environment (`404` else). */
export async function checkGrants(db: Executor, scope: Scope, kind: ProductRow['kind'], grants: readonly ProductGrantColumn[] | undefined) {
  if (!grants || grants.length === 0) return;
  if (kind !== 'digital') throw invalid('grants', 'Only digital products grant access.');
  for (const [i, g] of grants.entries()) {
    const prefixOk = g.id.startsWith(`${g.type}_`);
    if (!prefixOk || !(await playableExists(db, scope, g.type, g.id))) {
      throw ApiError.of('resource_not_found', { param: `grants.${i}.id`, message: `No such ${g.type === 'ls' ? 'live stream' : 'asset'}: '${g.id}'.` });
    }
  }
}

/** Publishing needs an active variant and, for a digital product, something to grant. */
export function checkPublishable(product: Pick<ProductRow, 'kind' | 'grants'>, activeVariants: number) {
  if (activeVariants === 0) throw invalid('variants', 'A published product needs an active variant.');
  if (product.kind === 'digital' && product.grants.length === 0) throw invalid('grants', 'A published digital product needs a grant.');
}

export function grantLimitsColumn(limits: EntitlementLimitsInput | null | undefined): EntitlementLimitsColumn | null {
  if (!limits) return null;
  return {
    max_devices: limits.max_devices ?? null,
    max_concurrent_sessions: limits.max_concurrent_sessions ?? null,
    concurrency_policy: limits.concurrency_policy ?? 'replace_oldest',
    max_views: limits.max_views ?? null,
    allowed_countries: limits.allowed_countries ? [...new Set(limits.allowed_countries)] : null,
    allowed_domains: limits.allowed_domains ? [...new Set(limits.allowed_domains)] : null,
  };
}
