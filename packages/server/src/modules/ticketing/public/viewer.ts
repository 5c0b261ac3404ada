import type { AppContext } from '../../../core/context';
import { customerPrincipal } from '../../../core/auth/customer-token';
import type { TenantPrincipal } from '../../../core/principal';

/**
 * The signed-in customer behind a public read or a booking, if any (gated events open to entitled ones): a
 * person's identity access token (their `cus_` customer), or a customer token beside a publishable key (its
 * `sub`). A customer token that is sent must be valid.
 */
export async function customerViewerOf(ctx: AppContext, caller: TenantPrincipal, authorization: string | undefined): Promise<string | null> {
  if (caller.kind === 'user') return caller.customerId;
  if (caller.kind === 'customer') return caller.customer;
  if (caller.kind === 'publishable' && authorization) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    return (await customerPrincipal(ctx, caller, bearer)).customer;
  }
  return null;
}
