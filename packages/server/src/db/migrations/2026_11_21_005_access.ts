import { type Kysely, sql } from 'kysely';

/** Access: entitlements, access sessions and customer token keys. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('entitlements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('customer', 'text')
    .addColumn('contact_hash', 'text')
    .addColumn('resource_type', 'text', (c) => c.notNull().check(sql`resource_type in ('ls', 'ast')`))
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_ref', 'text')
    .addColumn('starts_at', 'timestamptz')
    .addColumn('ends_at', 'timestamptz')
    .addColumn('limits', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'suspended', 'revoked', 'expired')`))
    .addColumn('views_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('external_id', 'text')
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('entitlements_one_subject', sql`(customer is null) <> (contact_hash is null)`)
    .execute();
  // A repeat grant finds its entitlement here; two identical grants at once meet at this index.
  await db.schema
    .createIndex('entitlements_grant')
    .on('entitlements')
    .columns(['tenant_id', 'livemode', 'source', 'source_ref', 'customer', 'contact_hash', 'resource_type', 'resource_id'])
    .unique()
    .nullsNotDistinct()
    .execute();
  await db.schema
    .createIndex('entitlements_customer')
    .on('entitlements')
    .columns(['tenant_id', 'livemode', 'customer', 'resource_id'])
    .where(sql<boolean>`customer is not null`)
    .execute();
  await db.schema
    .createIndex('entitlements_contact_hash')
    .on('entitlements')
    .columns(['tenant_id', 'livemode', 'contact_hash', 'resource_id'])
    .where(sql<boolean>`contact_hash is not null`)
    .execute();
  await db.schema.createIndex('entitlements_scope_id').on('entitlements').columns(['tenant_id', 'livemode', 'id']).execute();
  await db.schema
    .createIndex('entitlements_external_id')
    .on('entitlements')
    .columns(['tenant_id', 'livemode', 'external_id'])
    .unique()
    .where(sql<boolean>`external_id is not null`)
    .execute();
  await db.schema.createIndex('entitlements_metadata').on('entitlements').using('gin').column('metadata').execute();
  // The expiry sweep looks only at active entitlements with an end.
  await db.schema
    .createIndex('entitlements_active_ends_at')
    .on('entitlements')
    .column('ends_at')
    .where(sql<boolean>`status = 'active' and ends_at is not null`)
    .execute();

  await db.schema
    .createTable('access_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('entitlement_id', 'text', (c) => c.notNull().references('entitlements.id'))
    .addColumn('customer', 'text')
    .addColumn('contact_hash', 'text')
    .addColumn('resource_type', 'text', (c) => c.notNull().check(sql`resource_type in ('ls', 'ast')`))
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('variant', 'text')
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('active', 'ended')`))
    .addColumn('ended_reason', 'text', (c) =>
      c.check(sql`ended_reason in ('client', 'missed_heartbeats', 'replaced_by_newer_session', 'entitlement_inactive')`),
    )
    .addColumn('playback_id', 'text', (c) => c.notNull())
    .addColumn('playback_policy', 'text', (c) => c.notNull().check(sql`playback_policy in ('signed', 'public')`))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('token_key_id', 'text')
    .addColumn('last_heartbeat_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('ended_at', 'timestamptz')
    .addCheckConstraint('access_sessions_ended', sql`(state = 'ended') = (ended_reason is not null and ended_at is not null)`)
    .execute();
  // Opening counts the entitlement's live sessions and its devices.
  await db.schema
    .createIndex('access_sessions_entitlement_active')
    .on('access_sessions')
    .columns(['entitlement_id', 'created_at'])
    .where(sql<boolean>`state = 'active'`)
    .execute();
  await db.schema.createIndex('access_sessions_entitlement_device').on('access_sessions').columns(['entitlement_id', 'device_id']).execute();
  // The missed-heartbeat sweep looks only at active sessions.
  await db.schema
    .createIndex('access_sessions_active_expires_at')
    .on('access_sessions')
    .column('expires_at')
    .where(sql<boolean>`state = 'active'`)
    .execute();

  await db.schema
    .createTable('customer_token_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('customer_token_keys_scope_id')
    .on('customer_token_keys')
    .columns(['tenant_id', 'livemode', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('customer_token_keys').execute();
  await db.schema.dropTable('access_sessions').execute();
  await db.schema.dropTable('entitlements').execute();
}
