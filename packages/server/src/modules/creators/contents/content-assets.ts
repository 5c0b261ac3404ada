import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';

/** The item assets of each published content item among `ids` (unpublished or unknown items are absent). */
export async function publishedContentAssets(db: Executor, scope: Scope, ids: readonly string[]): Promise<Map<string, string[]>> {
  if (ids.length === 0) return new Map();
  const rows = await scoped(db, scope).selectFrom('contents').select(['id', 'item_asset_ids']).where('id', 'in', [...ids]).where('status', '=', 'published').execute();
  return new Map(rows.map((r) => [r.id, r.item_asset_ids]));
}
