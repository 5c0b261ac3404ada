import type { Express, Request, Response } from 'express';
import { brandOf } from '../../../core/branding';
import { brandedPage, type BrandedPage } from '../../../core/brand-page';
import type { AppContext } from '../../../core/context';
import { latestSessionPayment, refreshPayment } from '../../payments';
import { isCheckoutSessionId } from '../booking/checkout-sessions';
import { findSession, scopeOfSession, sessionOrganization } from './checkout-sessions.repository';
import { checkoutPage, CHECKOUT_STYLE, notFoundPage } from './checkout-page.html';
import { CHECKOUT_SCRIPT } from './checkout-page.script';

// The page runs only its own script and style (and the brand's, behind a nonce), talks only to this server, and
// cannot be framed; its images come from here and the brand's logo host; the session id in its address never
// leaves in a Referer header. The provider's hosted page is reached by navigation, which `connect-src` allows.
const csp = (b?: BrandedPage) =>
  `default-src 'none'; script-src 'self'; style-src 'self'${b ? ` ${b.styleSrc}` : ''}; connect-src 'self'; img-src 'self'${b?.imgSrc ? ` ${b.imgSrc}` : ''}; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;
const SECURITY_HEADERS: Record<string, string> = {
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

const secure = (res: Response, branded?: BrandedPage) => {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  res.setHeader('Content-Security-Policy', csp(branded));
  return res;
};

/** The session of the address, in either mode; on a custom domain only its tenant's (and its organization's). */
async function sessionOfRequest(ctx: AppContext, req: Request) {
  const id = String(req.params.id);
  const found = isCheckoutSessionId(id) ? await findSession(ctx.db, id) : undefined;
  const organizationId = found ? await sessionOrganization(ctx.db, found) : null;
  const d = req.domain;
  const foreign = d && found && (found.tenant_id !== d.tenantId || found.livemode !== d.livemode || (d.organizationId && d.organizationId !== organizationId));
  return found && !foreign ? { session: found, organizationId } : undefined;
}

/**
 * A buyer back from a provider's page: the payments module asks the provider about the newest attempt now, so
 * the page shows the outcome without waiting for a notification. The page itself grants nothing: only the
 * provider's answer does.
 */
async function askProvider(ctx: AppContext, session: NonNullable<Awaited<ReturnType<typeof sessionOfRequest>>>['session']): Promise<void> {
  const scope = scopeOfSession(session);
  const latest = await latestSessionPayment(ctx.db, scope, session.id);
  if (latest?.status === 'pending' && (latest.provider === 'paystack' || latest.provider === 'stripe')) await refreshPayment(ctx, scope, latest.id);
}

/** `GET /checkout/{cs_id}` and `GET /checkout/{cs_id}/return`: the checkout page in either mode, its script and style. */
export function mountCheckoutPage(app: Express, ctx: AppContext): void {
  app.get('/checkout/assets/checkout.js', (_req, res) => {
    secure(res).type('application/javascript').send(CHECKOUT_SCRIPT);
  });
  app.get('/checkout/assets/checkout.css', (_req, res) => {
    secure(res).type('text/css').send(CHECKOUT_STYLE);
  });
  const serve = (returning: boolean) => async (req: Request, res: Response, next: (err?: unknown) => void) => {
    try {
      const found = await sessionOfRequest(ctx, req);
      if (!found) return void secure(res).status(404).type('html').send(notFoundPage);
      const { session, organizationId } = found;
      if (returning) await askProvider(ctx, session);
      const brand = await brandOf(ctx, scopeOfSession(session), organizationId);
      const branded = brandedPage(brand);
      secure(res, branded).type('html').send(checkoutPage(session.id, brand, branded, { test: !session.livemode, returning }));
    } catch (err) {
      next(err);
    }
  };
  app.get('/checkout/:id', serve(false));
  app.get('/checkout/:id/return', serve(true));
}
