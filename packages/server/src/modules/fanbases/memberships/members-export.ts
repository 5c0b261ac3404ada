import { stringify } from 'csv-stringify/sync';
import type { AppContext } from '../../../core/context';
import type { TenantPrincipal } from '../../../core/principal';
import { findCustomersByIds } from '../../identity';
import { fanbaseFor } from '../fanbases/fanbases.service';
import { iso } from '../fanbases/fanbases.serializer';
import * as repo from './memberships.repository';

const BATCH = 500;
const COLUMNS = ['membership_id', 'customer', 'email', 'phone', 'name', 'status', 'tier', 'source', 'subscription', 'subscription_status', 'joined_at', 'left_at'];

/** A cell a spreadsheet would run as a formula is prefixed with `'`, so it is shown as text. */
const cell = (value: string | null | undefined) => (value == null ? '' : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** Every member matching the list's filters as CSV, oldest first, read in keyset batches. */
export async function exportMembers(ctx: AppContext, caller: TenantPrincipal, fanbaseId: string, filters: repo.MemberFilters) {
  const fanbase = await fanbaseFor(ctx, caller, fanbaseId, 'fanbases:read');
  const parts = [stringify([COLUMNS])];
  let after = '';
  for (;;) {
    const rows = await repo.membersQuery(ctx.db, caller.scope, fanbase.id, filters).where('fanbase_memberships.id', '>', after).orderBy('fanbase_memberships.id').limit(BATCH).execute();
    const customers = new Map((await findCustomersByIds(ctx.db, caller.scope, rows.map((r) => r.customer))).map((c) => [c.id, c]));
    parts.push(
      stringify(
        rows.map((r) => {
          const c = customers.get(r.customer);
          return [r.id, r.customer, c?.email, c?.phone, c?.name, r.status, r.tier_id, r.source, r.subscription_id, r.subscription_status, iso(r.joined_at), iso(r.left_at)].map(cell);
        }),
      ),
    );
    if (rows.length < BATCH) break;
    after = rows.at(-1)!.id;
  }
  return { csv: parts.join(''), filename: `members-${fanbase.id}.csv` };
}
