import type { FanbaseMembership } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { expand, type ExpandSpec } from '../../../core/expand';
import type { Scope } from '../../../core/scope';
import { findCustomersByIds, serializeCustomer } from '../../identity';

/** What a membership can inline: its customer. */
const spec = (ctx: AppContext, scope: Scope): ExpandSpec => ({
  customer: {
    load: async (ids) => new Map((await findCustomersByIds(ctx.db, scope, ids)).map((c) => [c.id, serializeCustomer(c) as unknown as Record<string, unknown>])),
  },
});

export async function expandMembers(ctx: AppContext, scope: Scope, members: FanbaseMembership[], paths: string[] | undefined): Promise<FanbaseMembership[]> {
  if (!paths?.length) return members;
  return (await expand(members as unknown as Record<string, unknown>[], paths, spec(ctx, scope))) as unknown as FanbaseMembership[];
}

/** Checks `expand[]` paths before a read loads anything, so a bad path is a `400` even for a missing fanbase. */
export async function checkMemberExpand(ctx: AppContext, scope: Scope, paths: string[] | undefined): Promise<void> {
  await expand([], paths, spec(ctx, scope));
}
