import type { EntitlementRow } from '../../../db/access.schema';
import type { Database } from '../../../db/database';
import { aloneOnFailure, Batcher } from '../../../core/batcher';
import { emitPreparedEvents, type PreparedEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import { resourcesExist } from '../resources';
import { insertEntitlementsIfNew } from './entitlements.repository';

/** A grant that is new as far as the caller knows, with its `access.entitlement.granted` event built. */
export interface NewGrant {
  scope: Scope;
  row: EntitlementRow;
  event: PreparedEvent;
}

/** What became of a new grant: inserted, skipped because the same grant exists, or refused for want of its resource. */
export type NewGrantResult = 'inserted' | 'exists' | 'no_resource';

async function insertGrants(db: Database, grants: readonly NewGrant[]): Promise<NewGrantResult[]> {
  return db.transaction().execute(async (trx) => {
    const present = await resourcesExist(trx, grants.map((g) => ({ scope: g.scope, resource: { type: g.row.resource_type, id: g.row.resource_id } })));
    const inserted = await insertEntitlementsIfNew(trx, grants.filter((_, i) => present[i]).map((g) => g.row));
    await emitPreparedEvents(trx, grants.filter((g) => inserted.has(g.row.id)).map((g) => g.event));
    return grants.map((g, i) => (!present[i] ? 'no_resource' : inserted.has(g.row.id) ? 'inserted' : 'exists'));
  });
}

// One batch per connection pool, as for heartbeats and session opens.
const batches = new WeakMap<Database, Batcher<NewGrant, NewGrantResult>>();

/**
 * Inserts a new grant and records its event in one transaction with the other new grants arriving meanwhile
 * (group commit: a few statements for many grants), once its live stream or asset is found. Writes nothing
 * for a grant that exists or whose resource does not. A batch that fails (another grant's `external_id`
 * taken, a deadlock) is tried again one grant at a time, so a grant fails only for its own reason.
 */
export function insertNewGrant(db: Database, grant: NewGrant): Promise<NewGrantResult> {
  let batch = batches.get(db);
  if (!batch) {
    batch = new Batcher(aloneOnFailure((grants: NewGrant[]) => insertGrants(db, grants)), { maxConcurrent: 4 });
    batches.set(db, batch);
  }
  return batch.add(grant);
}
