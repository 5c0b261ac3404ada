import { SignJWT } from 'jose';
import { sql } from 'kysely';
import { ACCESS_LIMITS } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { customerTokenSecretContext } from '../../../core/auth/customer-token-keys';
import { ApiError } from '../../../core/errors';
import { newId, randomToken } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { resolveAccessToken } from './access-tokens';

const nowOf = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());

/** The customer token key the service manages for this tenant and environment, made on first use. */
async function managedKey(ctx: AppContext, scope: Scope): Promise<{ id: string; secret: string }> {
  const find = () =>
    ctx.db
      .selectFrom('customer_token_keys')
      .select(['id', 'secret_sealed'])
      .where('tenant_id', '=', scope.tenantId)
      .where('livemode', '=', scope.livemode)
      .where('managed', '=', true)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  let row = await find();
  if (!row) {
    const id = newId('customer_token_key');
    const secret = `cts_${randomToken(48)}`;
    // Two first requests at once meet at the one-managed-key index; the loser reads the winner's key.
    await sql`
      insert into customer_token_keys (id, tenant_id, livemode, name, secret_sealed, revoked_at, managed)
      values (${id}, ${scope.tenantId}, ${scope.livemode}, ${'Identity sign-in (managed)'}, ${ctx.secrets.encrypt(secret, customerTokenSecretContext(id))}, null, true)
      on conflict do nothing`.execute(ctx.db);
    row = await find();
  }
  return { id: row!.id, secret: ctx.secrets.decrypt(row!.secret_sealed, customerTokenSecretContext(row!.id)) };
}

/**
 * A customer token for the signed-in person (`sub` = their `cus_` id), for the publishable key's tenant and
 * environment, which the access token must match. Access then treats it like any tenant-signed token.
 */
export async function issueCustomerToken(ctx: AppContext, scope: Scope, accessToken: string | undefined) {
  if (!accessToken) throw ApiError.of('invalid_access_token', { message: 'Send the access token as `Authorization: Bearer`.', details: { reason: 'missing' } });
  const user = await resolveAccessToken(ctx, accessToken);
  if (user.scope.tenantId !== scope.tenantId || user.scope.livemode !== scope.livemode) {
    throw ApiError.of('tenant_mismatch', { status: 401, type: 'authentication_error', message: 'The access token belongs to another tenant or environment than the publishable key.' });
  }
  const key = await managedKey(ctx, scope);
  const iat = Math.floor(nowOf(ctx).getTime() / 1000);
  const exp = iat + ACCESS_LIMITS.customerToken.maxLifetimeSeconds;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', kid: key.id, typ: 'JWT' })
    .setSubject(user.customerId!)
    .setAudience(ACCESS_LIMITS.customerToken.audience)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(key.secret));
  return { token, expires_at: new Date(exp * 1000).toISOString() };
}
