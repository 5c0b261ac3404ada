import type { CreateContent, CursorPageQuery, UpdateContent } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { emitEvent } from '../../../core/events/emit-event';
import { ApiError } from '../../../core/errors';
import { newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { ContentRow } from '../../../db/creators.schema';
import type { OrganizationRow } from '../../identity';
import type { Actor } from '../creator-access';
import { checkAssets, contentColumns, slugOf } from './content-fields';
import { checkGate, gateColumns } from './content-gates';
import { assertTransition } from './content-transitions';
import * as repo from './contents.repository';
import { serializeContent } from './contents.serializer';

const slugTaken = (err: unknown) => isUniqueViolation(err, 'contents_slug');
const takenError = () => ApiError.of('slug_taken', { param: 'slug' });

export async function getContentRow(ctx: AppContext, scope: Scope, org: OrganizationRow, idOrSlug: string): Promise<ContentRow> {
  const row = await repo.findContent(ctx.db, scope, idOrSlug, { organizationId: org.id });
  if (!row) throw ApiError.notFound('content', idOrSlug);
  return row;
}

/** A new draft. Without a `slug` the title's is used, with a short random suffix when another item has it. */
export async function createContent(ctx: AppContext, scope: Scope, org: OrganizationRow, input: CreateContent) {
  await checkAssets(ctx, scope, input);
  await checkGate(ctx, scope, org.id, input.gate);
  for (let attempt = 0; ; attempt++) {
    try {
      const row = await repo.insertContent(ctx.db, scope, {
        id: newId('content'),
        organization_id: org.id,
        type: input.type,
        title: input.title,
        slug: input.slug ?? slugOf(input.title, attempt > 0),
        description: input.description ?? null,
        trailer_asset_id: input.trailer ?? null,
        item_asset_ids: input.items ?? [],
        visibility: input.visibility ?? 'public',
        price_amount: input.price?.amount ?? null,
        price_currency: input.price?.currency ?? null,
        ...gateColumns(input.gate),
        review_note: null,
        submitted_at: null,
        approved_at: null,
        published_at: null,
        rejected_at: null,
      });
      return serializeContent(row);
    } catch (err) {
      if (!slugTaken(err)) throw err;
      if (input.slug !== undefined || attempt >= 3) throw takenError();
    }
  }
}

export async function listContents(ctx: AppContext, scope: Scope, org: OrganizationRow, status: ContentRow['status'] | undefined, page: CursorPageQuery) {
  const result = await repo.listOrganizationContents(ctx.db, scope, org.id, status, page);
  return { ...result, data: result.data.map(serializeContent) };
}

/** Edits while the creator holds the item (`draft`, `changes_requested`); the row is locked so a review cannot cross it. */
export async function updateContent(ctx: AppContext, scope: Scope, org: OrganizationRow, idOrSlug: string, input: UpdateContent) {
  await checkAssets(ctx, scope, input);
  await checkGate(ctx, scope, org.id, input.gate);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const row = await repo.findContent(trx, scope, idOrSlug, { organizationId: org.id, forUpdate: true });
      if (!row) throw ApiError.notFound('content', idOrSlug);
      assertTransition('edit', row.status);
      return serializeContent(await repo.updateContent(trx, scope, row.id, contentColumns(input)));
    });
  } catch (err) {
    throw slugTaken(err) ? takenError() : err;
  }
}

/** `draft` or `changes_requested` → `pending_review`, recorded in the history with who sent it. */
export async function submitContent(ctx: AppContext, scope: Scope, org: OrganizationRow, idOrSlug: string, actor: Actor) {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await repo.findContent(trx, scope, idOrSlug, { organizationId: org.id, forUpdate: true });
    if (!row) throw ApiError.notFound('content', idOrSlug);
    assertTransition('submit', row.status);
    const now = new Date();
    const updated = await repo.updateContent(trx, scope, row.id, { status: 'pending_review', submitted_at: now, requested_items: [] });
    await repo.insertApproval(trx, scope, { id: newId('content_approval'), content_id: row.id, action: 'submitted', actor_type: actor.type, actor_id: actor.id, note: null, items: [] });
    const content = serializeContent(updated);
    await emitEvent(trx, scope, { type: 'creators.content.submitted', subject: row.id, object: content, previousAttributes: { status: row.status } });
    return content;
  });
}
