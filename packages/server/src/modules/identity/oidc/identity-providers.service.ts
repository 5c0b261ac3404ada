import { sql } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { Selectable } from 'kysely';
import type { IdentityProvidersTable } from '../../../db/identity.schema';
import { checkIssuer } from './oidc-outbound';

type ProviderRow = Selectable<IdentityProvidersTable>;
const DEFAULT_SCOPES = ['openid', 'email', 'profile'];
const sealContext = (scope: Scope, name: string) => `${scope.tenantId}:${scope.livemode}:${name}:oidc_client_secret`;

const serialize = (row: ProviderRow) => ({
  object: 'identity_provider' as const,
  name: row.name,
  livemode: row.livemode,
  issuer: row.issuer,
  client_id: row.client_id,
  scopes: row.scopes,
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
});

/** Creates or replaces a provider; the client secret is sealed (bound to the tenant, environment and name). */
export async function putProvider(ctx: AppContext, scope: Scope, name: string, input: { issuer: string; client_id: string; client_secret: string; scopes?: string[] }) {
  await checkIssuer(ctx, scope, input.issuer);
  const scopes = input.scopes?.length ? [...new Set(['openid', ...input.scopes])] : DEFAULT_SCOPES;
  const sealed = ctx.secrets.encrypt(input.client_secret, sealContext(scope, name));
  const { rows } = await sql<ProviderRow>`
    insert into identity_providers (tenant_id, livemode, name, issuer, client_id, client_secret_sealed, scopes)
    values (${scope.tenantId}, ${scope.livemode}, ${name}, ${input.issuer}, ${input.client_id}, ${sealed}, ${scopes})
    on conflict (tenant_id, livemode, name) do update set issuer = excluded.issuer, client_id = excluded.client_id,
      client_secret_sealed = excluded.client_secret_sealed, scopes = excluded.scopes, updated_at = now()
    returning *`.execute(ctx.db);
  return serialize(rows[0]!);
}

export async function listProviders(ctx: AppContext, scope: Scope) {
  const rows = await ctx.db
    .selectFrom('identity_providers')
    .selectAll()
    .where('tenant_id', '=', scope.tenantId)
    .where('livemode', '=', scope.livemode)
    .orderBy('name')
    .execute();
  return rows.map(serialize);
}

/** The provider with its secret opened, or `404`. */
export async function loadProvider(ctx: AppContext, scope: Scope, name: string) {
  const row = await ctx.db
    .selectFrom('identity_providers')
    .selectAll()
    .where('tenant_id', '=', scope.tenantId)
    .where('livemode', '=', scope.livemode)
    .where('name', '=', name)
    .executeTakeFirst();
  if (!row) throw ApiError.notFound('identity provider', name);
  return { ...row, clientSecret: ctx.secrets.decrypt(row.client_secret_sealed, sealContext(scope, name)) };
}
