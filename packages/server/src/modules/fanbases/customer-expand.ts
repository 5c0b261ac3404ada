import type { AppContext } from '../../core/context';
import { expand, type ExpandSpec } from '../../core/expand';
import type { Scope } from '../../core/scope';
import { findCustomersByIds, serializeCustomer } from '../identity';

/** What a membership or a subscription can inline: its customer. */
const spec = (ctx: AppContext, scope: Scope): ExpandSpec => ({
  customer: {
    load: async (ids) => new Map((await findCustomersByIds(ctx.db, scope, ids)).map((c) => [c.id, serializeCustomer(c) as unknown as Record<string, unknown>])),
  },
});

/** The objects with their `customer` inlined when `expand[]=customer` asks for it. */
export async function expandCustomers<T extends { customer: unknown }>(ctx: AppContext, scope: Scope, objects: T[], paths: string[] | undefined): Promise<T[]> {
  if (!paths?.length) return objects;
  return (await expand(objects as unknown as Record<string, unknown>[], paths, spec(ctx, scope))) as unknown as T[];
}

/** Checks `expand[]` paths before a read loads anything, so a bad path is a `400` even for a missing object. */
export async function checkCustomerExpand(ctx: AppContext, scope: Scope, paths: string[] | undefined): Promise<void> {
  await expand([], paths, spec(ctx, scope));
}
