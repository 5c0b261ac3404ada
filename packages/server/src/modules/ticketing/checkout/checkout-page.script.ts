/**
 * The checkout page's script, served as its own file so the page's CSP can refuse every inline script.
 * It writes only with `textContent`: nothing the API answers is ever parsed as HTML. It shows the session's
 * methods; a mobile money prompt is followed by polling the session until its payment settles; a provider's
 * hosted page is reached by navigation, and the return page waits for the outcome and forwards.
 */
export const CHECKOUT_SCRIPT = `(() => {
  const root = document.getElementById('checkout');
  const id = root.dataset.session;
  const returning = root.dataset.returning === '1';
  const $ = (sel) => document.getElementById(sel);
  const sessionUrl = '/v1/checkout/sessions/' + encodeURIComponent(id);
  const money = (amount, currency) => (amount / 100).toFixed(2) + ' ' + currency;
  const say = (text, kind) => { const m = $('message'); m.textContent = text; m.className = kind; };
  const setBusy = (busy) => document.querySelectorAll('form button').forEach((b) => { b.disabled = busy; });
  const FAILURES = {
    insufficient_funds: 'There was not enough money to pay.',
    cancelled_by_user: 'The payment was cancelled on the phone.',
    timeout: 'The prompt was not answered in time.',
    invalid_pin: 'The PIN was wrong.',
    subscriber_busy: 'The phone is busy with another payment; wait a minute.',
    amount_mismatch: 'The amount paid did not match; it will be returned.',
  };
  const failureText = (p) => (FAILURES[p.failure_code] || (p.failure_code === 'declined' ? 'The payment was declined' : 'The payment did not go through')) +
    (p.failure_code && !FAILURES[p.failure_code] ? ' (' + p.failure_code + ')' : '') + '.';
  let methods = [];
  let polling = null;

  // A fresh key per attempt: a retried request is the same attempt, a new click a new one.
  const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

  function showForms(show) {
    const mm = methods.find((m) => m.method === 'mobile_money');
    const card = methods.find((m) => m.method === 'card');
    $('mobile-money').hidden = !(show && mm);
    $('card').hidden = !(show && card);
    if (mm && mm.provider === 'mpesa') { $('phone-label').textContent = 'Pay with M-Pesa: your Safaricom number'; $('pay-mobile-money').textContent = 'Pay with M-Pesa'; }
    if (card && card.provider !== 'simulated') {
      $('card-number').hidden = true;
      $('card-number').required = false;
      $('card-label').textContent = 'Pay by card on ' + (card.provider === 'stripe' ? 'Stripe' : 'Paystack') + "'s secure page";
    }
    const magic = $('magic');
    if (magic) magic.hidden = !methods.some((m) => m.provider === 'simulated');
    setBusy(false);
  }

  // After a failure the forms come back, so the buyer can try again at once (another phone, another card).
  function tryAgain(text) {
    showForms(true);
    say(text + ' You can try again.', 'error');
  }

  function finish(s) {
    stopPolling();
    showForms(false);
    if (s.redirect_to) {
      const refunded = new URL(s.redirect_to).searchParams.get('outcome') === 'refunded';
      say(refunded ? 'The payment arrived too late and is being refunded.' : 'Paid. Thank you!', refunded ? 'error' : 'done');
      window.location.assign(s.redirect_to);
    } else say('Paid. Thank you!', 'done');
  }

  function stopPolling() { if (polling) { clearTimeout(polling); polling = null; } }

  // While a payment is pending the page asks the session every two seconds; the provider's answer moves it.
  function poll() {
    stopPolling();
    polling = setTimeout(async () => {
      try {
        const res = await fetch(sessionUrl);
        const body = await res.json();
        if (res.ok) { if (follow(body.data)) return; }
      } catch (err) { /* the network dropped: ask again */ }
      poll();
    }, 2000);
  }

  /** Shows the session's payment state; answers true when nothing is left to wait for. */
  function follow(s) {
    const p = s.latest_payment;
    if (s.status === 'complete' || s.redirect_to) { finish(s); return true; }
    if (p && p.status === 'pending') {
      const a = p.next_action;
      showForms(false);
      if (a && a.type === 'confirm_on_phone') say('Check your phone (number ending ' + a.phone_hint + ') and enter your M-Pesa PIN to pay.', 'info');
      else say('Waiting for the payment to be confirmed…', 'info');
      return false;
    }
    if (p && (p.status === 'failed' || p.status === 'cancelled') && (returning || polling)) {
      stopPolling();
      tryAgain(p.status === 'cancelled' ? 'The payment was not completed.' : failureText(p));
      return true;
    }
    if (s.status === 'expired' || s.order.status !== 'pending') {
      say('This order is ' + s.order.status + '.', 'error');
      showForms(false);
      return true;
    }
    return true;
  }

  async function load() {
    const res = await fetch(sessionUrl);
    const body = await res.json();
    if (!res.ok) { say(body.error ? body.error.message : 'This checkout cannot be loaded.', 'error'); setBusy(true); return; }
    const s = body.data;
    methods = s.methods || [];
    if (s.order.event) {
      $('event').textContent = s.order.event.name;
      $('when').textContent = new Date(s.order.event.starts_at).toLocaleString();
      $('ticket').textContent = s.order.quantity + ' × ' + s.order.ticket_type.name;
    } else {
      // Product and subscription orders: the organization, then one row per line item.
      $('event').textContent = s.order.organization.name;
      for (const id of ['when-label', 'when', 'ticket-label', 'ticket']) $(id).hidden = true;
      $('items-label').hidden = false;
      $('items-cell').hidden = false;
      for (const li of s.order.line_items) {
        const row = document.createElement('li');
        row.textContent = li.quantity + ' × ' + li.description + ' — ' + money(li.amount_total, s.currency);
        $('items').appendChild(row);
      }
    }
    $('code').textContent = s.order.code;
    $('amount').textContent = money(s.amount, s.currency);
    if (s.order.amount_discount > 0) $('discount').textContent = 'Discount: ' + money(s.order.amount_discount, s.currency);
    root.hidden = false;
    if (s.status === 'complete') { say('This checkout is already paid.', 'done'); if (s.redirect_to && returning) finish(s); return; }
    if (s.order.status !== 'pending' && s.order.status !== 'expired') { say('This order is ' + s.order.status + '.', 'error'); return; }
    if (methods.length === 0) { say('Payments are not available for this order right now.', 'error'); return; }
    showForms(true);
    if (s.order.status === 'expired') { say('This order is expired.', 'error'); if (s.livemode) showForms(false); }
    const p = s.latest_payment;
    if (p && p.status === 'pending' && (returning || (p.next_action && p.next_action.type === 'confirm_on_phone'))) { follow(s); poll(); return; }
    if (returning) follow(s);
  }

  async function pay(payload) {
    setBusy(true);
    say('Processing…', 'info');
    try {
      const res = await fetch(sessionUrl + '/pay', {
        method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': newKey() }, body: JSON.stringify(payload),
      });
      const body = await res.json();
      if (!res.ok) { say(body.error ? body.error.message : 'The payment could not be made.', 'error'); setBusy(false); return; }
      const { payment, redirect_to, next_action } = body.data;
      if (payment.status === 'failed') { tryAgain(failureText(payment)); return; }
      if (next_action && next_action.type === 'redirect') { say('Taking you to the payment page…', 'info'); window.location.assign(next_action.url); return; }
      if (next_action && next_action.type === 'confirm_on_phone') {
        showForms(false);
        say('Check your phone (number ending ' + next_action.phone_hint + ') and enter your M-Pesa PIN to pay.', 'info');
        poll();
        return;
      }
      say(payment.status === 'pending' ? 'Waiting for the payment to be confirmed…' : 'Paid. Thank you!', 'done');
      if (redirect_to) window.location.assign(redirect_to);
    } catch (err) {
      say('The network failed; try again.', 'error');
      setBusy(false);
    }
  }

  // A Kenyan number may be typed as people write it (07…, 01…, 2547…): the API takes E.164.
  const e164 = (v) => {
    const d = v.replace(/[\\s()-]/g, '');
    if (/^0[17]\\d{8}$/.test(d)) return '+254' + d.slice(1);
    if (/^254\\d{9}$/.test(d)) return '+' + d;
    return d;
  };
  $('mobile-money').addEventListener('submit', (e) => { e.preventDefault(); pay({ method: 'mobile_money', phone: e164($('phone').value.trim()) }); });
  $('card').addEventListener('submit', (e) => {
    e.preventDefault();
    const card = methods.find((m) => m.method === 'card');
    pay(card && card.provider !== 'simulated' ? { method: 'card' } : { method: 'card', card_number: $('card-number').value.replace(/\\s+/g, '') });
  });
  load().catch(() => say('This checkout cannot be loaded.', 'error'));
})();
`;
