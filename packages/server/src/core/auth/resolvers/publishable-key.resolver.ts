import type { AppContext } from '../../context';
import type { Principal } from '../../principal';
import { principalForKey } from '../api-key-principal';
import type { CredentialResolver } from '../credential-resolver';
import { customerPrincipal, type CustomerPrincipal } from '../customer-token';

/** Second: `Svc-Publishable-Key`. The customer token beside it is read after the route check (`withCustomerToken`). */
export const resolvePublishableKey: CredentialResolver = async (ctx, { publishable, ip }) => {
  if (publishable === undefined) return undefined;
  return principalForKey(ctx, ip, publishable);
};

/** A viewer: on routes that require it, the publishable key names the tenant and the customer token (the bearer) the customer. */
export async function withCustomerToken(
  ctx: AppContext,
  principal: Extract<Principal, { kind: 'publishable' }>,
  bearer: string | undefined,
  sentAsHeader: boolean,
): Promise<CustomerPrincipal> {
  return customerPrincipal(ctx, principal, sentAsHeader ? bearer : undefined);
}
