import type { CheckoutSession } from '@svc/contract';
import { brandOf, linkBaseOf, type ServedDomain } from '../../../core/branding';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { sessionPaymentState } from './session-payment-state';
import { describeSession, findSession, scopeOfSession, sessionOrganization } from './checkout-sessions.repository';

// Pay-later opens sessions for its payments and links to their page.
export { openSession } from './checkout-sessions.repository';
// Payments confirmed later (reconciliation, provider notifications) lock their order as a confirmation here does.
export { lockOrderWithCatalogue, lockOrdersWithCatalogue } from './checkout-sessions.repository';
export { checkoutUrl } from '../booking/checkout-sessions';

/**
 * `GET /v1/checkout/sessions/{id}`: what the checkout page shows. On a custom domain, only the domain's tenant's
 * (and organization's) sessions; its `url` is on the most specific domain serving checkout.
 */
export async function retrieveSession(ctx: AppContext, id: string, domain?: ServedDomain): Promise<CheckoutSession> {
  const session = await findSession(ctx.db, id);
  const organizationId = session ? await sessionOrganization(ctx.db, session) : null;
  const foreign = domain && session && (session.tenant_id !== domain.tenantId || session.livemode !== domain.livemode || (domain.organizationId && domain.organizationId !== organizationId));
  if (!session || foreign) throw ApiError.notFound('checkout session', id);
  const base = await linkBaseOf(ctx, { tenantId: session.tenant_id, livemode: session.livemode }, organizationId, 'checkout', domain);
  const described = await describeSession(ctx.db, session, base);
  const branding = await brandOf(ctx, scopeOfSession(session), organizationId);
  return { ...described, ...(await sessionPaymentState(ctx, session, organizationId, described.order.code)), branding };
}
