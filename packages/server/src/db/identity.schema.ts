import type { ColumnType, Generated, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface IdentitySettingsTable {
  tenant_id: string;
  livemode: boolean;
  redirect_urls: Json<string[]>;
  updated_at: Timestamp;
}

/** A person (`usr_`): one per verified phone or email across the deployment. */
export interface UsersTable {
  id: string;
  phone: string | null;
  email: string | null;
  created_at: Timestamp;
}

export interface CustomersTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  email: string | null;
  phone: string | null;
  name: string | null;
  user_id: string | null;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  deleted_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A sign-in code (and, for an email link, the link) sent to one destination; the code is kept as an HMAC. */
export interface OtpChallengesTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  /** `phone:+2547…` or `email:a@b.c`. */
  destination: string;
  channel: string;
  code_hmac: string;
  link_hash: string | null;
  redirect_to: string | null;
  ip: string;
  attempts: Generated<number>;
  expires_at: Date;
  consumed_at: Date | null;
  replaced_at: Date | null;
  created_at: Date;
}

export interface OtpFailuresTable {
  destination: string;
  created_at: Date;
}

export interface IdentitySigningKeysTable {
  id: string;
  status: 'standby' | 'current' | 'previous' | 'revoked';
  public_jwk: Json<Record<string, string>>;
  private_sealed: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AuthSessionsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  user_id: string;
  customer_id: string;
  amr: string;
  created_at: Date;
  last_refreshed_at: Date;
  ended_at: Date | null;
  ended_reason: string | null;
}

export interface RefreshTokensTable {
  id: string;
  session_id: string;
  token_hash: string;
  parent_id: string | null;
  used_at: Date | null;
  /** The token that replaced this one, sealed, kept for the 10 s grace in which this one answers it. */
  child_sealed: string | null;
  created_at: Date;
}

export interface IdentityProvidersTable {
  tenant_id: string;
  livemode: boolean;
  name: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  scopes: string[];
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OidcLoginsTable {
  state_hash: string;
  tenant_id: string;
  livemode: boolean;
  provider: string;
  code_verifier_sealed: string;
  nonce: string;
  redirect_to: string | null;
  expires_at: Date;
  consumed_at: Date | null;
}

export interface OrganizationsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  name: string;
  handle: string;
  kind: 'brand' | 'venue' | 'creator';
  timezone: string;
  currency: string;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MembersTable {
  id: string;
  tenant_id: string;
  organization_id: string | null;
  email: string | null;
  phone: string | null;
  user_id: string | null;
  role: string;
  status: 'invited' | 'active';
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IdentityTables {
  identity_settings: IdentitySettingsTable;
  users: UsersTable;
  customers: CustomersTable;
  otp_challenges: OtpChallengesTable;
  otp_failures: OtpFailuresTable;
  identity_signing_keys: IdentitySigningKeysTable;
  auth_sessions: AuthSessionsTable;
  refresh_tokens: RefreshTokensTable;
  identity_providers: IdentityProvidersTable;
  oidc_logins: OidcLoginsTable;
  organizations: OrganizationsTable;
  members: MembersTable;
}

export type CustomerRow = Selectable<CustomersTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type MemberRow = Selectable<MembersTable>;
