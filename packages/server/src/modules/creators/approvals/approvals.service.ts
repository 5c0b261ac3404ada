import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { Actor } from '../creator-access';
import { assertTransition } from '../contents/content-transitions';
import * as repo from '../contents/content-rows.service';
import { approvalDetail, approvalRecords, unreadyAssets } from './approval-records';
import { recordDecision } from './decision-effects';

const lockBySlug = async (trx: Executor, scope: Scope, slug: string) => {
  const row = await repo.findContent(trx, scope, slug, { forUpdate: true });
  if (!row) throw ApiError.notFound('content', slug);
  return row;
};

async function recordOf(ctx: AppContext, scope: Scope, id: string) {
  const row = await repo.findContent(ctx.db, scope, id);
  return (await approvalRecords(ctx, scope, [row!]))[0]!;
}

/** One item for review by its slug (or id), with its history. */
export async function getApproval(ctx: AppContext, scope: Scope, slug: string) {
  const row = await repo.findContent(ctx.db, scope, slug);
  if (!row) throw ApiError.notFound('content', slug);
  return approvalDetail(ctx, scope, row);
}

/**
 * Publishes approved content whose assets are all ready. Called after approval in its own transaction, so a
 * failure here leaves the approval standing (`approved`), and the publish route is the way to try again.
 */
async function publishIfReady(ctx: AppContext, scope: Scope, id: string, actor: Actor): Promise<void> {
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const row = await lockBySlug(trx, scope, id);
      if (row.status !== 'approved' || (await unreadyAssets(ctx, scope, row)).length > 0) return;
      const after = await repo.updateContent(trx, scope, row.id, { status: 'published', published_at: new Date() });
      await recordDecision(trx, scope, 'published', row, after, actor, { message: false });
    });
  } catch (err) {
    ctx.log.warn({ err, content: id }, 'publishing approved content failed; it stays approved');
  }
}

export async function approveContent(ctx: AppContext, scope: Scope, slug: string, actor: Actor, note: string | null) {
  const id = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockBySlug(trx, scope, slug);
    assertTransition('approve', row.status);
    const after = await repo.updateContent(trx, scope, row.id, { status: 'approved', approved_at: new Date(), review_note: note, requested_items: [] });
    await recordDecision(trx, scope, 'approved', row, after, actor, { note });
    return row.id;
  });
  await publishIfReady(ctx, scope, id, actor);
  return recordOf(ctx, scope, id);
}

export async function rejectContent(ctx: AppContext, scope: Scope, slug: string, actor: Actor, reason: string) {
  const id = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockBySlug(trx, scope, slug);
    assertTransition('reject', row.status);
    const after = await repo.updateContent(trx, scope, row.id, { status: 'rejected', rejected_at: new Date(), review_note: reason });
    await recordDecision(trx, scope, 'rejected', row, after, actor, { note: reason });
    return row.id;
  });
  return recordOf(ctx, scope, id);
}

export async function requestChanges(ctx: AppContext, scope: Scope, slug: string, actor: Actor, input: { message: string; items?: string[] }) {
  const id = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockBySlug(trx, scope, slug);
    assertTransition('request_changes', row.status);
    const own = [...(row.trailer_asset_id ? [row.trailer_asset_id] : []), ...row.item_asset_ids];
    const items = input.items ?? [];
    const stranger = items.findIndex((item) => !own.includes(item));
    if (stranger >= 0) {
      const message = `'${items[stranger]}' is not the trailer or an item of this content.`;
      throw ApiError.of('validation_failed', { message, param: `items.${stranger}`, details: { [`items.${stranger}`]: [message] } });
    }
    const after = await repo.updateContent(trx, scope, row.id, { status: 'changes_requested', review_note: input.message, requested_items: items });
    await recordDecision(trx, scope, 'changes_requested', row, after, actor, { note: input.message, items });
    return row.id;
  });
  return recordOf(ctx, scope, id);
}

/** The fallback publish: approved content only (`422 INVALID_OPERATION`), and published content answers as it is. */
export async function publishContent(ctx: AppContext, scope: Scope, slug: string, actor: Actor) {
  const id = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockBySlug(trx, scope, slug);
    if (row.status === 'published') return row.id;
    if (row.status !== 'approved') {
      throw ApiError.of('INVALID_OPERATION', { message: `Only approved content can be published; this content is ${row.status}.` });
    }
    const unready = await unreadyAssets(ctx, scope, row);
    if (unready.length > 0) {
      throw ApiError.of('asset_not_ready', {
        message: `The content's assets must be ready before it is published: ${unready.join(', ')}.`,
        param: 'items',
        details: { assets: unready },
      });
    }
    const after = await repo.updateContent(trx, scope, row.id, { status: 'published', published_at: new Date() });
    await recordDecision(trx, scope, 'published', row, after, actor);
    return row.id;
  });
  return recordOf(ctx, scope, id);
}
