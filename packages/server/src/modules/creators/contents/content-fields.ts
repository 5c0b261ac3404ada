import type { CreateContent, UpdateContent } from '@svc/contract';
import type { Updateable } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { ContentsTable } from '../../../db/creators.schema';
import { contentAssets, streamsDeps } from '../../streams';
import { gateColumns } from './content-gates';

/** `trailer` and `items` must name assets of the environment; readiness is checked when the content is published. */
export async function checkAssets(ctx: AppContext, scope: Scope, input: { trailer?: string | null; items?: string[] }) {
  const named = [...(input.trailer ? [['trailer', input.trailer]] : []), ...(input.items ?? []).map((id, i) => [`items.${i}`, id])];
  const found = await contentAssets(streamsDeps(ctx), ctx.db, scope, named.map(([, id]) => id!));
  const missing = named.find(([, id]) => !found.has(id!));
  if (missing) {
    const message = `No such asset: '${missing[1]}'.`;
    throw ApiError.of('validation_failed', { message, param: missing[0], details: { [missing[0]!]: [message] } });
  }
}

/** The columns a create or update sets. */
export function contentColumns(input: CreateContent | UpdateContent): Updateable<ContentsTable> {
  const changes: Updateable<ContentsTable> = {};
  if (input.title !== undefined) changes.title = input.title;
  if (input.slug !== undefined) changes.slug = input.slug;
  if (input.description !== undefined) changes.description = input.description;
  if (input.trailer !== undefined) changes.trailer_asset_id = input.trailer;
  if (input.items !== undefined) changes.item_asset_ids = input.items;
  if (input.visibility !== undefined) changes.visibility = input.visibility;
  if (input.price !== undefined) {
    changes.price_amount = input.price?.amount ?? null;
    changes.price_currency = input.price?.currency ?? null;
  }
  if (input.gate !== undefined) Object.assign(changes, gateColumns(input.gate));
  return changes;
}

/** The title as a slug (a-z, 0-9, single hyphens), at least 3 characters; `suffixed` adds 5 random characters. */
export function slugOf(title: string, suffixed: boolean): string {
  const base =
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 70)
      .replace(/-+$/, '') || 'content';
  const padded = base.length < 3 ? `${base}-content` : base;
  return suffixed ? `${padded}-${randomBytes(4).toString('hex').slice(0, 5)}` : padded;
}
