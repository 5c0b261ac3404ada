import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { ContentRow } from '../../../db/creators.schema';
import { findOrganizationsByIds } from '../../identity';
import { contentAssets, streamsDeps, type ContentAsset } from '../../streams';
import * as repo from '../contents/content-rows.service';
import { serializeContent } from '../contents/contents.serializer';

/** An asset as a review shows it; one deleted since it was named still appears, as `deleted`. */
const assetOf = (assets: Map<string, ContentAsset>, id: string) => {
  const a = assets.get(id);
  return a ? { id, status: a.status, duration: a.duration, playback_ids: a.playback_ids } : { id, status: 'deleted', duration: null, playback_ids: [] };
};

/** Content records for tenant staff: trailer, items and organization inline (one query each for a whole page). */
export async function approvalRecords(ctx: AppContext, scope: Scope, rows: ContentRow[]) {
  const ids = rows.flatMap((r) => [...(r.trailer_asset_id ? [r.trailer_asset_id] : []), ...r.item_asset_ids]);
  const [assets, orgs] = await Promise.all([
    contentAssets(streamsDeps(ctx), ctx.db, scope, ids),
    findOrganizationsByIds(ctx.db, scope, rows.map((r) => r.organization_id)),
  ]);
  const orgById = new Map(orgs.map((o) => [o.id, o]));
  return rows.map((row) => {
    const org = orgById.get(row.organization_id);
    return {
      ...serializeContent(row),
      trailer: row.trailer_asset_id ? assetOf(assets, row.trailer_asset_id) : null,
      items: row.item_asset_ids.map((id) => assetOf(assets, id)),
      organization: { id: row.organization_id, name: org?.name ?? '', handle: org?.handle ?? '' },
    };
  });
}

/** One record with its history of submissions and decisions, oldest first. */
export async function approvalDetail(ctx: AppContext, scope: Scope, row: ContentRow) {
  const [[record], history] = await Promise.all([approvalRecords(ctx, scope, [row]), repo.listApprovalHistory(ctx.db, scope, row.id)]);
  return {
    ...record!,
    approvals: history.map((h) => ({
      action: h.action,
      actor: { type: h.actor_type, id: h.actor_id },
      note: h.note,
      items: h.items,
      created_at: new Date(h.created_at).toISOString(),
    })),
  };
}

/** The assets of the content that are missing or not ready: publishing waits until there are none. */
export async function unreadyAssets(ctx: AppContext, scope: Scope, row: ContentRow): Promise<string[]> {
  const ids = [...(row.trailer_asset_id ? [row.trailer_asset_id] : []), ...row.item_asset_ids];
  const assets = await contentAssets(streamsDeps(ctx), ctx.db, scope, ids);
  return ids.filter((id) => assets.get(id)?.status !== 'ready');
}
