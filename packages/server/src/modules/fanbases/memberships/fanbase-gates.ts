import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { FanbaseRow } from '../../../db/fanbases.schema';
import { capsuleSwitches } from '../../creators';
import { findCustomer, getOrganizationRow } from '../../identity';

/** Whether fans may join and subscribe: an active fanbase, and for a creator, the capsule's switches. */
export async function fanbaseOpenings(ctx: AppContext, scope: Scope, fanbase: FanbaseRow): Promise<{ join: boolean; subscribe: boolean }> {
  if (fanbase.status !== 'active') return { join: false, subscribe: false };
  const org = await getOrganizationRow(ctx.db, scope, fanbase.organization_id);
  if (org.kind !== 'creator') return { join: true, subscribe: true };
  const switches = await capsuleSwitches(ctx.db, scope, org.id);
  return { join: switches.join_enabled, subscribe: switches.subscription_enabled };
}

export async function requireOpen(ctx: AppContext, scope: Scope, fanbase: FanbaseRow, what: 'join' | 'subscribe'): Promise<void> {
  const open = await fanbaseOpenings(ctx, scope, fanbase);
  if (open[what]) return;
  throw ApiError.of('fanbase_closed', {
    message: fanbase.status !== 'active' ? 'The fanbase is archived.' : `The creator has switched ${what === 'join' ? 'joining' : 'subscriptions'} off.`,
  });
}

/** A customer of the tenant that exists (not deleted): `404` otherwise. */
export async function requireKnownCustomer(ctx: AppContext, scope: Scope, customer: string, param?: string): Promise<string> {
  const row = customer.startsWith('cus_') ? await findCustomer(ctx.db, scope, customer) : undefined;
  if (!row) throw ApiError.of('resource_not_found', { message: `No such customer: ${customer}`, ...(param && { param }) });
  return row.id;
}
