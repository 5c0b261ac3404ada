import type { Express, Response } from 'express';
import type { EffectiveBranding } from '@svc/contract';
import { brandOf } from '../../../core/branding';
import { brandedPage, escapeHtml, type BrandedPage } from '../../../core/brand-page';
import type { AppContext } from '../../../core/context';
import { isCheckoutSessionId } from '../booking/checkout-sessions';
import { findTestSession, sessionOrganization } from './checkout-sessions.repository';
import { CHECKOUT_SCRIPT } from './checkout-page.script';

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;background:#f6f6f4;color:#222}
.test-mode{background:#ffb020;color:#000;text-align:center;font-weight:700;padding:.4rem;letter-spacing:.08em}
main{max-width:28rem;margin:2rem auto;background:#fff;padding:1.5rem;border-radius:.5rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin:.2rem 0}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}dt{color:#666}
form{border-top:1px solid #eee;padding-top:1rem;margin-top:1rem}label{display:block;margin-bottom:.3rem}
input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem;margin-bottom:.5rem}
button{padding:.6rem 1rem;font-size:1rem;cursor:pointer}.error{color:#b00020}.done{color:#0a7a2f}.info{color:#555}
.hint{font-size:.8rem;color:#777}`;

// The page runs only its own script and style (and the brand's, behind a nonce), talks only to this server, and
// cannot be framed; its images come from here and the brand's logo host; the session id in its address never
// leaves in a Referer header.
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

const page = (title: string, body: string, b?: BrandedPage) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title><link rel="stylesheet" href="/checkout/assets/checkout.css">${b?.style ?? ''}</head>
<body><div class="test-mode" id="test-mode">TEST MODE — no real money moves</div>${b?.header ?? ''}${body}${b?.footer ?? ''}</body></html>`;

// The id is checked against the id alphabet before it is written into the page, so it needs no escaping.
const checkoutPage = (id: string, brand: EffectiveBranding, b: BrandedPage) =>
  page(
    `Checkout · ${escapeHtml(brand.display_name)} (test mode)`,
    `<main id="checkout" data-session="${id}" hidden>
<h1 id="event"></h1><dl><dt>When</dt><dd id="when"></dd><dt>Tickets</dt><dd id="ticket"></dd><dt>Order</dt><dd id="code"></dd>
<dt>To pay</dt><dd><strong id="amount"></strong> <span id="discount"></span></dd></dl>
<form id="mobile-money"><label for="phone">Pay by mobile money</label><input id="phone" name="phone" type="tel" autocomplete="off" placeholder="+254711000000" required>
<button id="pay-mobile-money" type="submit">Pay with mobile money</button></form>
<form id="card"><label for="card-number">Pay by card</label><input id="card-number" name="card_number" inputmode="numeric" autocomplete="off" placeholder="4242 4242 4242 4242" required>
<button id="pay-card" type="submit">Pay by card</button></form>
<p id="message" role="status"></p>
<p class="hint">Magic values: +254711000001 / 4000000000009995 fail (insufficient funds), +254711000002 / 4000000000000002 are declined, +254711000003 never answers.</p>
</main><script src="/checkout/assets/checkout.js"></script>`,
    b,
  );

const notFound = page('Checkout not found', '<main><h1>No such checkout</h1><p>This link is not a test-mode checkout. Check the link you were given.</p></main>');

/** `GET /checkout/{cs_id}`: the test-mode checkout simulator's page, and its script and style. */
export function mountCheckoutPage(app: Express, ctx: AppContext): void {
  app.get('/checkout/assets/checkout.js', (_req, res) => {
    secure(res).type('application/javascript').send(CHECKOUT_SCRIPT);
  });
  app.get('/checkout/assets/checkout.css', (_req, res) => {
    secure(res).type('text/css').send(STYLE);
  });
  app.get('/checkout/:id', async (req, res, next) => {
    try {
      const id = req.params.id;
      const found = isCheckoutSessionId(id) ? await findTestSession(ctx.db, id) : undefined;
      const organizationId = found ? await sessionOrganization(ctx.db, found) : null;
      // On a custom domain, only its tenant's (and its organization's) sessions.
      const d = req.domain;
      const session = d && found && (found.tenant_id !== d.tenantId || found.livemode !== d.livemode || (d.organizationId && d.organizationId !== organizationId)) ? undefined : found;
      if (!session) return void secure(res).status(404).type('html').send(notFound);
      const brand = await brandOf(ctx, { tenantId: session.tenant_id, livemode: session.livemode }, organizationId);
      const branded = brandedPage(brand);
      secure(res, branded).type('html').send(checkoutPage(session.id, brand, branded));
    } catch (err) {
      next(err);
    }
  });
}
