import { sql } from 'kysely';
import { LIMITS } from '@svc/contract';
import type { Executor } from '../../db/database';
import type { NotificationListener } from '../notify';
import type { ResolvedKey, ResolvedTenant } from '../principal';

export const CREDENTIALS_CHANNEL = 'svc_credentials';

export interface CachedCredential {
  key: ResolvedKey;
  tenant: ResolvedTenant;
}

/**
 * Resolved API keys by secret hash, kept at most 60 seconds. Revoking or rolling a key, or changing its
 * tenant, notifies every process on the database (in the changing transaction, so only once it commits),
 * and each drops the affected entries at once.
 */
export class CredentialCache {
  private readonly entries = new Map<string, CachedCredential & { until: number }>();
  /** Bumped by every invalidation; a value read from the database before a bump is not cached. */
  private gen = 0;

  constructor(
    listener: NotificationListener,
    private readonly ttlMs = LIMITS.keyCache.maxSeconds * 1000,
    private readonly maxEntries = 100_000,
  ) {
    listener.on(CREDENTIALS_CHANNEL, (payload) => this.invalidate(payload));
    listener.onReset(() => {
      this.gen += 1;
      this.entries.clear();
    });
  }

  get(secretHash: string): CachedCredential | undefined {
    const entry = this.entries.get(secretHash);
    if (!entry) return undefined;
    if (entry.until <= Date.now()) {
      this.entries.delete(secretHash);
      return undefined;
    }
    return entry;
  }

  get generation(): number {
    return this.gen;
  }

  /** Caches a value read from the database, unless an invalidation arrived since `readAt` (from `generation`). */
  set(secretHash: string, value: CachedCredential, readAt = this.gen): void {
    if (readAt !== this.gen) return;
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(secretHash, { ...value, until: Date.now() + this.ttlMs });
  }

  /**
   * Drops a key, or every key of a tenant, in this process now. The notification reaches this process only
   * a moment after the change commits, so the request that made the change calls this before answering.
   */
  forget(change: { keyId: string } | { tenantId: string }): void {
    this.gen += 1;
    for (const [hash, entry] of this.entries) {
      if ('keyId' in change ? entry.key.id === change.keyId : entry.tenant.id === change.tenantId) this.entries.delete(hash);
    }
  }

  private invalidate(payload: string): void {
    const [kind, id] = payload.split(':', 2) as ['key' | 'tenant', string];
    this.forget(kind === 'key' ? { keyId: id } : { tenantId: id });
  }
}

/** Tells every process to forget a key or a tenant; sent only if the surrounding transaction commits. */
export async function notifyCredentialsChanged(db: Executor, change: { keyId: string } | { tenantId: string }) {
  const payload = 'keyId' in change ? `key:${change.keyId}` : `tenant:${change.tenantId}`;
  await sql`select pg_notify(${CREDENTIALS_CHANNEL}, ${payload})`.execute(db);
}
