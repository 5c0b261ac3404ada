import { LIMITS } from '@svc/contract';
import type { EntitlementRow } from '../../../db/access.schema';
import type { NotificationListener } from '../../../core/notify';
import type { Scope } from '../../../core/scope';

export const ENTITLEMENTS_CHANNEL = 'svc_entitlements';

type Subject = { customer: string | null; contact_hash: string | null };
type Resource = { type: string; id: string };

/** What a cache entry is about: one customer's (or contact hash's) entitlements to one resource. */
export const entitlementKey = (scope: Scope, subject: Subject, resource: Resource) =>
  `${scope.tenantId}:${scope.livemode}:${subject.customer ?? ''}:${subject.contact_hash ?? ''}:${resource.type}:${resource.id}`;

const keyOfRow = (row: Pick<EntitlementRow, 'tenant_id' | 'livemode' | 'customer' | 'contact_hash' | 'resource_type' | 'resource_id'>) =>
  entitlementKey({ tenantId: row.tenant_id, livemode: row.livemode }, row, { type: row.resource_type, id: row.resource_id });

/**
 * Entitlements by customer and resource, so access checks and session opens need no query. Kept at most 60
 * seconds; every change to an entitlement notifies every process in its transaction (`entitlementChanged`,
 * so only once it commits), each drops the entry, and the changing request drops it locally before answering.
 * A read that an invalidation overtook is not cached. A lost LISTEN connection clears everything.
 *
 * Callers trust only what lets a viewer in: a refusal is read again from the database, so a grant made on
 * another process a moment ago is never refused from here. What the cache can miss for a moment is a
 * revocation on another process (until its notification arrives); heartbeats and the limits of a new session
 * are decided by the database, never by this cache.
 */
export class EntitlementCache {
  private readonly entries = new Map<string, { rows: EntitlementRow[]; until: number }>();
  /** Reads in flight by key; an invalidation removes the key, so the read's result is not kept. */
  private readonly reading = new Map<string, symbol>();

  constructor(
    listener: NotificationListener,
    private readonly ttlMs = LIMITS.keyCache.maxSeconds * 1000,
    private readonly maxEntries = 20_000,
  ) {
    listener.on(ENTITLEMENTS_CHANNEL, (key) => this.forget(key));
    listener.onReset(() => {
      this.entries.clear();
      this.reading.clear();
    });
  }

  get(key: string): EntitlementRow[] | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.until > Date.now()) return entry.rows;
    if (entry) this.entries.delete(key);
    return undefined;
  }

  /** Reads from the database and keeps the answer, unless an invalidation of `key` arrived meanwhile. */
  async read(key: string, load: () => Promise<EntitlementRow[]>): Promise<EntitlementRow[]> {
    const token = Symbol(key);
    this.reading.set(key, token);
    let rows: EntitlementRow[];
    try {
      rows = await load();
    } catch (err) {
      if (this.reading.get(key) === token) this.reading.delete(key);
      throw err;
    }
    if (this.reading.get(key) === token) {
      this.reading.delete(key);
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { rows, until: Date.now() + this.ttlMs });
    }
    return rows;
  }

  forget(key: string): void {
    this.entries.delete(key);
    this.reading.delete(key);
  }

  /** After a change committed: this process forgets at once (the notification comes a moment later). */
  changed(scope: Scope, entitlement: Subject & { resource: Resource }): void {
    this.forget(entitlementKey(scope, entitlement, entitlement.resource));
  }
}

/** The notification telling every process the entitlement changed; it is sent only if its transaction commits. */
export const entitlementChanged = (row: Parameters<typeof keyOfRow>[0]) => ({ channel: ENTITLEMENTS_CHANNEL, payload: keyOfRow(row) });
