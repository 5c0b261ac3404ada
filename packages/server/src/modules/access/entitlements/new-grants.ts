import type { EntitlementRow } from '../../../db/access.schema';
import type { Database } from '../../../db/database';
import { Batcher } from '../../../core/batcher';
import { emitPreparedEvents, type PreparedEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import { insertEntitlementsIfNew } from './entitlements.repository';

/** A grant that is new as far as the caller knows, with its `access.entitlement.granted` event built. */
export interface NewGrant {
  scope: Scope;
  row: EntitlementRow;
  event: PreparedEvent;
}

type Outcome = { inserted: boolean } | { error: unknown };

async function insertGrants(db: Database, grants: readonly NewGrant[]): Promise<boolean[]> {
  return db.transaction().execute(async (trx) => {
    const inserted = await insertEntitlementsIfNew(trx, grants.map((g) => g.row));
    await emitPreparedEvents(trx, grants.filter((g) => inserted.has(g.row.id)).map((g) => g.event));
    return grants.map((g) => inserted.has(g.row.id));
  });
}

// One batch per connection pool, as for heartbeats and session opens.
const batches = new WeakMap<Database, Batcher<NewGrant, Outcome>>();

/**
 * Inserts a new grant and records its event in one transaction with the other new grants arriving meanwhile
 * (group commit: a few statements for many grants). Answers `false`, writing nothing, when the same grant
 * exists. A batch that fails (another grant's `external_id` taken, a deadlock) is tried again one grant at a
 * time, so a grant fails only for its own reason.
 */
export async function insertNewGrant(db: Database, grant: NewGrant): Promise<boolean> {
  let batch = batches.get(db);
  if (!batch) {
    batch = new Batcher(async (grants) => {
      try {
        return (await insertGrants(db, grants)).map((inserted) => ({ inserted }));
      } catch (err) {
        if (grants.length === 1) return [{ error: err }];
        const out: Outcome[] = [];
        for (const g of grants) out.push(await insertGrants(db, [g]).then(([inserted]) => ({ inserted: inserted! }), (error: unknown) => ({ error })));
        return out;
      }
    });
    batches.set(db, batch);
  }
  const outcome = await batch.add(grant);
  if ('error' in outcome) throw outcome.error;
  return outcome.inserted;
}
