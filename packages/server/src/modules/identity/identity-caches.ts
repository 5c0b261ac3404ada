import type { webcrypto } from 'node:crypto';
import { sql } from 'kysely';
import { LIMITS } from '@svc/contract';
import type { NotificationListener } from '../../core/notify';
import { CREDENTIALS_CHANNEL } from '../../core/auth/credential-cache';
import type { ResolvedTenant } from '../../core/principal';
import type { Executor } from '../../db/database';

export const IDENTITY_CHANNEL = 'svc_identity';

/** Entries kept at most `ttlMs`; a value read before an invalidation (see `generation`) is not kept. */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  generation = 0;

  constructor(
    private readonly ttlMs = LIMITS.keyCache.maxSeconds * 1000,
    private readonly maxEntries = 50_000,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, readAt: number): void {
    if (readAt !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until: Date.now() + this.ttlMs });
  }

  /** Drops one key, or all of them; either way a read already running is not cached. */
  forget(key?: string): void {
    this.generation += 1;
    if (key === undefined) this.entries.clear();
    else this.entries.delete(key);
  }
}

/** A sign-in session as token checks need it. */
export interface SessionState {
  tenantId: string;
  userId: string;
  endedAt: Date | null;
}

/** One active membership of a person in a tenant: staff (`organization_id` null) or in an organization. */
export interface MemberRole {
  organization_id: string | null;
  role: string;
  /** The organization's environment; null for a staff role. */
  livemode: boolean | null;
}

export interface HeaderTenant extends ResolvedTenant {
  code: string;
}

/**
 * Identity's per-process caches, each cleared on every process through one LISTEN channel when the change
 * commits: sessions (logout refuses a token at once everywhere), member permissions and roles (a role change), tenants
 * named by the tenant header (a code change), and the public signing keys (a rotation).
 */
export class IdentityCaches {
  readonly sessions = new TtlCache<SessionState>();
  readonly permissions = new TtlCache<readonly string[]>();
  readonly roles = new TtlCache<readonly MemberRole[]>();
  readonly tenants = new TtlCache<HeaderTenant | null>();
  readonly signingKeys = new TtlCache<webcrypto.CryptoKey | null>();

  constructor(listener: NotificationListener) {
    listener.on(IDENTITY_CHANNEL, (payload) => this.invalidate(payload));
    // A tenant's products, limits or code changed (the operator's PATCH notifies this channel).
    listener.on(CREDENTIALS_CHANNEL, () => this.tenants.forget());
    listener.onReset(() => {
      for (const cache of [this.sessions, this.permissions, this.roles, this.tenants, this.signingKeys]) cache.forget();
    });
  }

  /** Every person's permissions and roles: a membership changed somewhere. */
  forgetMembers(): void {
    this.permissions.forget();
    this.roles.forget();
  }

  invalidate(payload: string): void {
    const [kind, id] = payload.split(':', 2);
    if (kind === 'session') this.sessions.forget(id);
    else if (kind === 'members') this.forgetMembers();
    else if (kind === 'keys') this.signingKeys.forget();
  }
}

/** Tells every process (this one included, a moment later) what changed; sent only if the transaction commits. */
export async function notifyIdentity(db: Executor, payloads: readonly string[]): Promise<void> {
  if (payloads.length === 0) return;
  await sql`select pg_notify(${IDENTITY_CHANNEL}, p) from unnest(${sql.val(payloads)}::text[]) as p`.execute(db);
}
