import type { CheckoutSession } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { describeSession, findTestSession } from './checkout-sessions.repository';

// Pay-later opens sessions for its payments and links to their page.
export { openSession } from './checkout-sessions.repository';
// Payments confirmed later (reconciliation, provider notifications) lock their order as a confirmation here does.
export { lockOrderWithCatalogue } from './checkout-sessions.repository';
export { checkoutUrl } from '../booking/checkout-sessions';

/** `GET /v1/checkout/sessions/{id}`: what the checkout page shows. */
export async function retrieveSession(ctx: AppContext, id: string): Promise<CheckoutSession> {
  const session = await findTestSession(ctx.db, id);
  if (!session) throw ApiError.notFound('checkout session', id);
  return describeSession(ctx.db, session, ctx.config.baseUrl);
}
