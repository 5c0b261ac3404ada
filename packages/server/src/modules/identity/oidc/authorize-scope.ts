import type { AppContext } from '../../../core/context';
import { hashSecret } from '../../../core/auth/api-key-secret';
import { resolveApiKey } from '../../../core/auth/resolve-api-key';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import { resolveTenant } from '../tenancy/resolve-tenant';

/**
 * A browser navigating to `/auth/v1/authorize` sends no headers, so the tenant comes in the query: `tenant`
 * (code or `ten_` id, live mode) or `publishable_key` (its tenant and environment).
 */
export async function authorizeScope(ctx: AppContext, query: { tenant?: string; publishable_key?: string }): Promise<Scope> {
  if (query.publishable_key) {
    const resolved = await resolveApiKey(ctx.db, hashSecret(query.publishable_key));
    const key = resolved?.key;
    if (!resolved || !key || key.type !== 'publishable' || key.revokedAt || (key.expiresAt && key.expiresAt.getTime() <= Date.now())) {
      throw ApiError.of('api_key_invalid', { message: 'The publishable key is not a usable publishable key.', param: 'publishable_key' });
    }
    return { tenantId: resolved.tenant.id, livemode: key.livemode };
  }
  if (query.tenant) return { tenantId: (await resolveTenant(ctx, query.tenant)).id, livemode: true };
  throw ApiError.of('invalid_request', { message: 'Name the tenant with `tenant` or `publishable_key`.', param: 'tenant' });
}
