import { type Kysely, sql } from 'kysely';

/**
 * Identity: tenant codes, the message outbox, people and their customers, sign-in challenges, access-token
 * signing keys, sessions with rotating refresh tokens, OpenID Connect providers, organizations and members.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // Existing tenants get a code from their name plus the end of their id, which keeps it unique.
  await sql`alter table tenants add column code text`.execute(db);
  await sql`
    update tenants set code = left(trim(both '-' from regexp_replace(lower(name), '[^a-z0-9]+', '-', 'g')), 40) || '-' || right(id, 6)
  `.execute(db);
  await sql`alter table tenants alter column code set not null`.execute(db);
  await sql`create unique index tenants_code on tenants (code)`.execute(db);

  await sql`
    create table identity_settings (
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      redirect_urls jsonb not null default '[]'::jsonb,
      updated_at timestamptz not null default now(),
      primary key (tenant_id, livemode)
    )`.execute(db);

  await sql`
    create table messages (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      channel text not null check (channel in ('whatsapp', 'sms', 'email')),
      "to" text not null,
      template text not null,
      subject text,
      body text not null,
      sensitive boolean not null default false,
      status text not null check (status in ('captured', 'queued', 'sent', 'failed')),
      error_code text,
      related text[] not null default '{}',
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index messages_scope_id on messages (tenant_id, livemode, id)`.execute(db);
  await sql`create index messages_related on messages using gin (related)`.execute(db);

  await sql`
    create table users (
      id text primary key,
      phone text unique,
      email text unique,
      created_at timestamptz not null default now(),
      check (phone is not null or email is not null)
    )`.execute(db);

  await sql`
    create table customers (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      email text,
      phone text,
      name text,
      user_id text references users(id),
      external_id text,
      metadata jsonb not null default '{}'::jsonb,
      deleted_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index customers_scope_id on customers (tenant_id, livemode, id)`.execute(db);
  await sql`create unique index customers_external_id on customers (tenant_id, livemode, external_id) where external_id is not null and deleted_at is null`.execute(db);
  // One customer per person in each tenant and environment.
  await sql`create unique index customers_user on customers (tenant_id, livemode, user_id) where user_id is not null and deleted_at is null`.execute(db);
  await sql`create index customers_email on customers (tenant_id, livemode, email) where email is not null`.execute(db);
  await sql`create index customers_phone on customers (tenant_id, livemode, phone) where phone is not null`.execute(db);

  await sql`
    create table otp_challenges (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      destination text not null,
      channel text not null,
      code_hmac text not null,
      link_hash text unique,
      redirect_to text,
      ip text not null,
      attempts integer not null default 0,
      expires_at timestamptz not null,
      consumed_at timestamptz,
      replaced_at timestamptz,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index otp_challenges_destination on otp_challenges (destination, created_at)`.execute(db);
  await sql`create index otp_challenges_ip on otp_challenges (ip, created_at)`.execute(db);
  await sql`
    create table otp_failures (
      destination text not null,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index otp_failures_destination on otp_failures (destination, created_at)`.execute(db);

  await sql`
    create table identity_signing_keys (
      id text primary key,
      status text not null check (status in ('standby', 'current', 'previous', 'revoked')),
      public_jwk jsonb not null,
      private_sealed text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index identity_signing_keys_one_current on identity_signing_keys (status) where status = 'current'`.execute(db);

  await sql`
    create table auth_sessions (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      user_id text not null references users(id),
      customer_id text not null,
      amr text not null,
      created_at timestamptz not null,
      last_refreshed_at timestamptz not null,
      ended_at timestamptz,
      ended_reason text
    )`.execute(db);
  await sql`create index auth_sessions_user on auth_sessions (user_id, tenant_id)`.execute(db);
  await sql`
    create table refresh_tokens (
      id text primary key,
      session_id text not null references auth_sessions(id),
      token_hash text not null unique,
      parent_id text,
      used_at timestamptz,
      child_sealed text,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index refresh_tokens_session on refresh_tokens (session_id)`.execute(db);

  await sql`
    create table identity_providers (
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      name text not null,
      issuer text not null,
      client_id text not null,
      client_secret_sealed text not null,
      scopes text[] not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, livemode, name)
    )`.execute(db);
  await sql`
    create table oidc_logins (
      state_hash text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      provider text not null,
      code_verifier_sealed text not null,
      nonce text not null,
      redirect_to text,
      expires_at timestamptz not null,
      consumed_at timestamptz
    )`.execute(db);

  await sql`
    create table organizations (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      name text not null,
      handle text not null,
      kind text not null check (kind in ('brand', 'venue', 'creator')),
      timezone text not null,
      currency text not null,
      external_id text,
      metadata jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index organizations_handle on organizations (tenant_id, livemode, handle)`.execute(db);
  await sql`create unique index organizations_external_id on organizations (tenant_id, livemode, external_id) where external_id is not null`.execute(db);

  // Tenant staff (organization_id null) belong to the tenant in both environments; organization members to the organization's.
  await sql`
    create table members (
      id text primary key,
      tenant_id text not null references tenants(id),
      organization_id text references organizations(id),
      email text,
      phone text,
      user_id text references users(id),
      role text not null,
      status text not null check (status in ('invited', 'active')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (email is not null or phone is not null)
    )`.execute(db);
  await sql`create unique index members_email on members (tenant_id, coalesce(organization_id, ''), email) where email is not null`.execute(db);
  await sql`create unique index members_phone on members (tenant_id, coalesce(organization_id, ''), phone) where phone is not null`.execute(db);
  await sql`create index members_user on members (user_id) where user_id is not null`.execute(db);

  // Customer tokens the service signs for signed-in people use a customer token key it manages itself.
  await sql`alter table customer_token_keys add column managed boolean not null default false`.execute(db);
  await sql`create unique index customer_token_keys_managed on customer_token_keys (tenant_id, livemode) where managed and revoked_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index customer_token_keys_managed`.execute(db);
  await sql`alter table customer_token_keys drop column managed`.execute(db);
  for (const table of [
    'members', 'organizations', 'oidc_logins', 'identity_providers', 'refresh_tokens', 'auth_sessions',
    'identity_signing_keys', 'otp_failures', 'otp_challenges', 'customers', 'users', 'messages', 'identity_settings',
  ]) {
    await sql`drop table ${sql.table(table)}`.execute(db);
  }
  await sql`alter table tenants drop column code`.execute(db);
}
