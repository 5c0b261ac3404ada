import type { EntitlementRow } from '../../../db/access.schema';
import type { Executor } from '../../../db/database';
import type { Scope } from '../../../core/scope';
import * as repo from './entitlements.repository';

/* Entitlement rows for the other resources of Access (sessions), so that only the entitlements' own files use their repository. */

export type { Subject } from './entitlements.repository';

/** The caller's entitlement row, or `undefined`. */
export async function findEntitlementRow(db: Executor, scope: Scope, id: string): Promise<EntitlementRow | undefined> {
  return repo.findEntitlement(db, scope, id);
}
