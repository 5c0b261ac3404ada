import type { EffectiveBranding } from '@svc/contract';
import { escapeHtml, type BrandedPage } from '../../../core/brand-page';

export const CHECKOUT_STYLE = `body{font-family:system-ui,sans-serif;margin:0;background:#f6f6f4;color:#222}
.test-mode{background:#ffb020;color:#000;text-align:center;font-weight:700;padding:.4rem;letter-spacing:.08em}
main{max-width:28rem;margin:2rem auto;background:#fff;padding:1.5rem;border-radius:.5rem;box-shadow:0 1px 4px #0002}
@media (max-width:30rem){main{margin:0;border-radius:0;box-shadow:none;min-height:100vh;box-sizing:border-box;padding:1rem}}
h1{font-size:1.3rem;margin:.2rem 0}#items{margin:0;padding-left:1rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}dt{color:#666}
form{border-top:1px solid #eee;padding-top:1rem;margin-top:1rem}label{display:block;margin-bottom:.3rem}
input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem;margin-bottom:.5rem}
button{padding:.6rem 1rem;font-size:1rem;cursor:pointer;min-height:2.75rem}.error{color:#b00020}.done{color:#0a7a2f}.info{color:#555}
.hint{font-size:.8rem;color:#777}[hidden]{display:none!important}`;

const band = (test: boolean) => (test ? '<div class="test-mode" id="test-mode">TEST MODE — no real money moves</div>' : '');

export const pageOf = (title: string, body: string, test: boolean, b?: BrandedPage) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title><link rel="stylesheet" href="/checkout/assets/checkout.css">${b?.style ?? ''}</head>
<body>${band(test)}${b?.header ?? ''}${body}${b?.footer ?? ''}</body></html>`;

const SIMULATOR_HINT =
  '<p class="hint" id="magic">Magic values: +254711000001 / 4000000000009995 fail (insufficient funds), +254711000002 / 4000000000000002 are declined, +254711000003 never answers.</p>';

/**
 * The checkout page: the order, then the forms of the methods the session offers (the script shows those in
 * `methods`): a phone for mobile money, a card number for the simulator, or a button to the provider's page.
 * `returning`: the buyer is back from a provider's page; the script waits for the outcome and forwards.
 * The id is checked against the id alphabet before it is written into the page, so it needs no escaping.
 */
export const checkoutPage = (id: string, brand: EffectiveBranding, b: BrandedPage, opts: { test: boolean; returning: boolean }) =>
  pageOf(
    `Checkout · ${escapeHtml(brand.display_name)}${opts.test ? ' (test mode)' : ''}`,
    `<main id="checkout" data-session="${id}"${opts.returning ? ' data-returning="1"' : ''} hidden>
<h1 id="event"></h1><dl><dt id="when-label">When</dt><dd id="when"></dd><dt id="ticket-label">Tickets</dt><dd id="ticket"></dd>
<dt id="items-label" hidden>Items</dt><dd id="items-cell" hidden><ul id="items"></ul></dd><dt>Order</dt><dd id="code"></dd>
<dt>To pay</dt><dd><strong id="amount"></strong> <span id="discount"></span></dd></dl>
<form id="mobile-money" hidden><label for="phone" id="phone-label">Pay by mobile money</label><input id="phone" name="phone" type="tel" autocomplete="tel" placeholder="0712 345 678" required>
<button id="pay-mobile-money" type="submit">Pay with mobile money</button></form>
<form id="card" hidden><label for="card-number" id="card-label">Pay by card</label><input id="card-number" name="card_number" inputmode="numeric" autocomplete="off" placeholder="4242 4242 4242 4242" required>
<button id="pay-card" type="submit">Pay by card</button></form>
<p id="message" role="status" aria-live="polite"></p>
${opts.test ? SIMULATOR_HINT : ''}
</main><script src="/checkout/assets/checkout.js"></script>`,
    opts.test,
    b,
  );

export const notFoundPage = pageOf('Checkout not found', '<main><h1>No such checkout</h1><p>This link is not a checkout of this service. Check the link you were given.</p></main>', false);
