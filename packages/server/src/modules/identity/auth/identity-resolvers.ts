import type { AppContext } from '../../../core/context';
import type { AuthSlots } from '../../../core/auth/credential-resolver';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import { resolveTenant } from '../tenancy/resolve-tenant';
import { resolveAccessToken } from './access-tokens';
import { isTenantStaff, memberPermissions } from './member-permissions';

async function tenantIdOf(ctx: AppContext, codeOrId: string): Promise<string | undefined> {
  try {
    return (await resolveTenant(ctx, codeOrId)).id;
  } catch {
    return undefined;
  }
}

/**
 * `Svc-Environment: test|live` beside an access token: a tenant's staff member (a role in the tenant, not in one
 * organization) works in both environments, as the console's toggle does, without signing in twice. Organization
 * members and customers stay in the environment of their sign-in.
 */
async function staffEnvironment(ctx: AppContext, tenantId: string, userId: string, environment: string): Promise<boolean> {
  if (environment !== 'test' && environment !== 'live') {
    throw ApiError.of('invalid_request', { param: 'Svc-Environment', message: 'Svc-Environment is `test` or `live`.' });
  }
  if (!(await isTenantStaff(ctx, tenantId, userId))) {
    throw ApiError.of('missing_permission', {
      message: 'Only the tenant\'s staff members choose the environment with Svc-Environment.',
      details: { required_permission: 'tenant_staff' },
    });
  }
  return environment === 'live';
}

/**
 * What identity plugs into authentication's slots: access tokens (rule 3: the token's `tid` decides, a tenant
 * header naming another tenant answers `401 tenant_mismatch`; the person's member permissions, read per request
 * from a cache of at most 60 s, go on the scope) and tenant codes (rule 4, cached the same way).
 */
export function identityAuthSlots(ctx: AppContext): AuthSlots {
  return {
    userTokens: {
      verify: async (token, { tenantHeader, environment }) => {
        const user = await resolveAccessToken(ctx, token);
        if (tenantHeader !== undefined && (await tenantIdOf(ctx, tenantHeader)) !== user.tenant.id) {
          throw ApiError.of('tenant_mismatch', {
            status: 401,
            type: 'authentication_error',
            param: 'X-Tenant-Code',
            message: 'The tenant header names another tenant than the access token.',
          });
        }
        const permissions = await memberPermissions(ctx, user.tenant.id, user.userId);
        const livemode = environment === undefined ? user.scope.livemode : await staffEnvironment(ctx, user.tenant.id, user.userId, environment);
        return { ...user, scope: { ...user.scope, livemode, permissions } };
      },
    },
    tenantCodes: {
      tenantIdForCode: async (code) => (isIdOf('tenant', code) ? code : tenantIdOf(ctx, code)),
    },
  };
}
