import type { CursorPageQuery, PublicContent } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { ContentRow } from '../../../db/creators.schema';
import { findOrganizationByHandle, findOrganizationsByIds } from '../../identity';
import { contentAssets, streamsDeps } from '../../streams';
import { gateOf, lockedContents } from '../contents/content-gates';
import * as repo from './public-contents.repository';

/**
 * What the public sees of content: its trailer's public playback ids only, and how many items it holds. Gated
 * content the viewer may not see is locked (no description, no trailer); gated content the viewer may see also
 * shows its items, which is how a member reaches the media.
 */
export async function serializePublicContents(ctx: AppContext, scope: Scope, rows: ContentRow[], viewer: string | null): Promise<PublicContent[]> {
  const locked = await lockedContents(ctx, scope, rows, viewer);
  const opened = rows.filter((r) => r.gate_type !== null && !locked.has(r.id));
  const trailers = rows.flatMap((r) => (r.trailer_asset_id && !locked.has(r.id) ? [r.trailer_asset_id] : []));
  const [assets, orgs] = await Promise.all([
    contentAssets(streamsDeps(ctx), ctx.db, scope, [...trailers, ...opened.flatMap((r) => r.item_asset_ids)]),
    findOrganizationsByIds(ctx.db, scope, rows.map((r) => r.organization_id)),
  ]);
  const orgById = new Map(orgs.map((o) => [o.id, o]));
  return rows.map((row) => {
    const isLocked = locked.has(row.id);
    const trailer = row.trailer_asset_id && !isLocked ? assets.get(row.trailer_asset_id) : undefined;
    const org = orgById.get(row.organization_id);
    const items = row.gate_type !== null && !isLocked ? row.item_asset_ids.flatMap((id) => assets.get(id) ?? []) : null;
    return {
      id: row.id,
      object: 'content',
      type: row.type,
      title: row.title,
      slug: row.slug,
      description: isLocked ? null : row.description,
      trailer: trailer
        ? { id: trailer.id, status: trailer.status, duration: trailer.duration, playback_ids: trailer.playback_ids.filter((p) => p.policy === 'public') }
        : null,
      items_count: row.item_asset_ids.length,
      price: row.price_amount === null ? null : { amount: row.price_amount, currency: row.price_currency! },
      gate: gateOf(row),
      locked: isLocked,
      items: items && items.map((a) => ({ id: a.id, status: a.status, duration: a.duration, playback_ids: a.playback_ids })),
      organization: { id: row.organization_id, name: org?.name ?? '', handle: org?.handle ?? '' },
      published_at: new Date(row.published_at!).toISOString(),
    };
  });
}

export async function listPublicContents(ctx: AppContext, scope: Scope, filters: { organization?: string; type?: ContentRow['type'] }, page: CursorPageQuery, viewer: string | null) {
  let organizationId: string | undefined;
  if (filters.organization !== undefined) {
    organizationId = isIdOf('organization', filters.organization)
      ? filters.organization
      : ((await findOrganizationByHandle(ctx.db, scope, filters.organization))?.id ?? 'org_none');
  }
  const result = await repo.listPublished(ctx.db, scope, { organizationId, type: filters.type }, page);
  return { ...result, data: await serializePublicContents(ctx, scope, result.data, viewer) };
}

export async function getPublicContent(ctx: AppContext, scope: Scope, idOrSlug: string, viewer: string | null) {
  const row = await repo.findPublished(ctx.db, scope, idOrSlug);
  if (!row) throw ApiError.notFound('content', idOrSlug);
  return (await serializePublicContents(ctx, scope, [row], viewer))[0]!;
}
