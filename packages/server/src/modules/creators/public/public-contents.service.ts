import type { CursorPageQuery, PublicContent } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { ContentRow } from '../../../db/creators.schema';
import { findOrganizationByHandle, findOrganizationsByIds } from '../../identity';
import { contentAssets, streamsDeps } from '../../streams';
import * as repo from './public-contents.repository';

/** What the public sees of content: its trailer's public playback ids only, and how many items it holds. */
export async function serializePublicContents(ctx: AppContext, scope: Scope, rows: ContentRow[]): Promise<PublicContent[]> {
  const trailers = rows.flatMap((r) => (r.trailer_asset_id ? [r.trailer_asset_id] : []));
  const [assets, orgs] = await Promise.all([
    contentAssets(streamsDeps(ctx), ctx.db, scope, trailers),
    findOrganizationsByIds(ctx.db, scope, rows.map((r) => r.organization_id)),
  ]);
  const orgById = new Map(orgs.map((o) => [o.id, o]));
  return rows.map((row) => {
    const trailer = row.trailer_asset_id ? assets.get(row.trailer_asset_id) : undefined;
    const org = orgById.get(row.organization_id);
    return {
      id: row.id,
      object: 'content',
      type: row.type,
      title: row.title,
      slug: row.slug,
      description: row.description,
      trailer: trailer
        ? { id: trailer.id, status: trailer.status, duration: trailer.duration, playback_ids: trailer.playback_ids.filter((p) => p.policy === 'public') }
        : null,
      items_count: row.item_asset_ids.length,
      price: row.price_amount === null ? null : { amount: row.price_amount, currency: row.price_currency! },
      organization: { id: row.organization_id, name: org?.name ?? '', handle: org?.handle ?? '' },
      published_at: new Date(row.published_at!).toISOString(),
    };
  });
}

export async function listPublicContents(ctx: AppContext, scope: Scope, filters: { organization?: string; type?: ContentRow['type'] }, page: CursorPageQuery) {
  let organizationId: string | undefined;
  if (filters.organization !== undefined) {
    organizationId = isIdOf('organization', filters.organization)
      ? filters.organization
      : ((await findOrganizationByHandle(ctx.db, scope, filters.organization))?.id ?? 'org_none');
  }
  const result = await repo.listPublished(ctx.db, scope, { organizationId, type: filters.type }, page);
  return { ...result, data: await serializePublicContents(ctx, scope, result.data) };
}

export async function getPublicContent(ctx: AppContext, scope: Scope, idOrSlug: string) {
  const row = await repo.findPublished(ctx.db, scope, idOrSlug);
  if (!row) throw ApiError.notFound('content', idOrSlug);
  return (await serializePublicContents(ctx, scope, [row]))[0]!;
}
