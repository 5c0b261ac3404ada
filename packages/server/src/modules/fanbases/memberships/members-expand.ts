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
