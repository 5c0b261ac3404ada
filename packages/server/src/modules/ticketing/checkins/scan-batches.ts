import { aloneOnFailure, Batcher, type ItemFailure } from '../../../core/batcher';
import type { Scope } from '../../../core/scope';
import type { Database } from '../../../db/database';
import { runScanStatement, type ScanItem, type ScanStatementOutcome } from './scan-statement';

interface Pending {
  scope: Scope;
  ref: string;
  organizations: readonly string[] | null;
  item: ScanItem;
}

const doorOf = (p: Pending) => JSON.stringify([p.scope.tenantId, p.scope.livemode, p.ref, p.organizations]);

/**
 * Splits one door's scans into rounds in which no ticket (secret) and no nonce comes twice, each scan in the
 * round after the last one holding its ticket or nonce: one statement redeems a ticket once, and a repeat (or a
 * retried nonce) must see the scan before it, as it would have one request later.
 */
export function roundsOf<T extends { item: ScanItem }>(scans: readonly T[]): T[][] {
  const rounds: T[][] = [];
  const last = new Map<string, number>();
  for (const s of scans) {
    const keys = [`s:${s.item.secretHash}`, ...(s.item.scan.nonce == null ? [] : [`n:${s.item.scan.nonce}`])];
    const round = Math.max(-1, ...keys.map((k) => last.get(k) ?? -1)) + 1;
    (rounds[round] ??= []).push(s);
    for (const k of keys) last.set(k, round);
  }
  return rounds;
}

/** Each door's scans, round after round; doors side by side. */
async function flush(db: Database, scans: Pending[]): Promise<Array<ScanStatementOutcome | ItemFailure>> {
  const out = new Array<ScanStatementOutcome | ItemFailure>(scans.length);
  const doors = new Map<string, Array<Pending & { at: number }>>();
  scans.forEach((p, at) => {
    const key = doorOf(p);
    doors.set(key, [...(doors.get(key) ?? []), { ...p, at }]);
  });
  await Promise.all(
    [...doors.values()].map(async (door) => {
      const { scope, ref, organizations } = door[0]!;
      for (const round of roundsOf(door)) {
        // A statement that fails (two batches locking shared tickets in opposite orders, one scan's fault) wrote
        // nothing: its scans go again one by one, so only a scan that fails alone fails its request.
        const run = aloneOnFailure((items: Array<(typeof round)[number]>) =>
          runScanStatement(db, scope, { ref, organizations, items: items.map((r) => r.item) }),
        );
        const outcomes = await run(round);
        round.forEach((r, i) => (out[r.at] = outcomes[i]!));
      }
    }),
  );
  return out;
}

// One batch per connection pool: every process (and every test app with its own pool) groups its own scans.
const batches = new WeakMap<Database, Batcher<Pending, ScanStatementOutcome>>();

/**
 * A scan, in one statement with the other scans arriving meanwhile (group commit, `core/batcher.ts`): the door's
 * devices scan at once, and one statement for many costs the database about one commit and the server one round trip.
 */
export function scanInBatch(db: Database, scope: Scope, ref: string, organizations: readonly string[] | null, item: ScanItem) {
  let batch = batches.get(db);
  if (!batch) {
    batch = new Batcher((scans: Pending[]) => flush(db, scans), { maxItems: 100, maxConcurrent: 3 });
    batches.set(db, batch);
  }
  return batch.add({ scope, ref, organizations, item });
}
