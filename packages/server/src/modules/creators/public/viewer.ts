import type { AppContext } from '../../../core/context';
import { customerPrincipal } from '../../../core/auth/customer-token';
import { ApiError } from '../../../core/errors';
import type { TenantPrincipal } from '../../../core/principal';

/**
 * The signed-in customer behind a request, if any: a person's identity access token (their `cus_` customer),
 * or a customer token beside a publishable key (its `sub`). A customer token that is sent must be valid.
 */
export async function viewerOf(ctx: AppContext, caller: TenantPrincipal, authorization: string | undefined): Promise<string | null> {
  if (caller.kind === 'user') return caller.customerId;
  if (caller.kind === 'customer') return caller.customer;
  if (caller.kind === 'publishable' && authorization) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    return (await customerPrincipal(ctx, caller, bearer)).customer;
  }
  return null;
}

/** The customer a follow is for: required (the route takes signed-in customers only). */
export async function requireViewer(ctx: AppContext, caller: TenantPrincipal, authorization: string | undefined): Promise<string> {
  const viewer = await viewerOf(ctx, caller, authorization);
  if (viewer === null) throw ApiError.of('insufficient_permissions', { message: 'Sign in as a customer of this tenant to follow a capsule.' });
  return viewer;
}
