import { sql } from 'kysely';
import { LIMITS } from '@svc/contract';
import type { Executor } from '../../db/database';
import type { NotificationListener } from '../notify';
import type { SecretBox } from '../secret-box';

export const CUSTOMER_TOKEN_KEYS_CHANNEL = 'svc_customer_token_keys';

/** A customer token key as verification needs it: its scope, its HMAC secret and whether it was revoked. */
export interface CustomerTokenKeyMaterial {
  id: string;
  tenantId: string;
  livemode: boolean;
  secret: Uint8Array;
  revokedAt: Date | null;
}

/** The SecretBox context a key's secret is sealed with: a sealed secret copied onto another key does not open. */
export const customerTokenSecretContext = (keyId: string) => `${keyId}:customer_token_secret`;

/**
 * Customer token keys by id, kept at most 60 seconds so verifying a token (every heartbeat from a browser)
 * is a memory lookup. Revoking a key notifies every process on the database in the revoking transaction, and
 * each drops the key at once, so a revoked key stops new sessions everywhere the moment it commits.
 */
export class CustomerTokenKeyCache {
  private readonly entries = new Map<string, { key: CustomerTokenKeyMaterial; until: number }>();

  constructor(
    listener: NotificationListener,
    private readonly ttlMs = LIMITS.keyCache.maxSeconds * 1000,
    private readonly maxEntries = 10_000,
  ) {
    listener.on(CUSTOMER_TOKEN_KEYS_CHANNEL, (id) => this.forget(id));
    listener.onReset(() => this.entries.clear());
  }

  /** The key, from memory or the database; `undefined` when no key has this id. Unknown ids are not remembered. */
  async load(db: Executor, secrets: SecretBox, id: string): Promise<CustomerTokenKeyMaterial | undefined> {
    const entry = this.entries.get(id);
    if (entry && entry.until > Date.now()) return entry.key;
    const row = await db
      .selectFrom('customer_token_keys')
      .select(['id', 'tenant_id', 'livemode', 'secret_sealed', 'revoked_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const key: CustomerTokenKeyMaterial = {
      id: row.id,
      tenantId: row.tenant_id,
      livemode: row.livemode,
      secret: new TextEncoder().encode(secrets.decrypt(row.secret_sealed, customerTokenSecretContext(row.id))),
      revokedAt: row.revoked_at,
    };
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, { key, until: Date.now() + this.ttlMs });
    return key;
  }

  /** Drops a key in this process now; the revoking request calls it before answering. */
  forget(id: string): void {
    this.entries.delete(id);
  }
}

/** Tells every process to drop a key; sent only if the surrounding transaction commits. */
export async function notifyCustomerTokenKeyChanged(db: Executor, id: string): Promise<void> {
  await sql`select pg_notify(${CUSTOMER_TOKEN_KEYS_CHANNEL}, ${id})`.execute(db);
}
