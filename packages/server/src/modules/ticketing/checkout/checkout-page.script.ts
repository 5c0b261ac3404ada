/**
 * The checkout page's script, served as its own file so the page's CSP can refuse every inline script.
 * It writes only with `textContent`: nothing the API answers is ever parsed as HTML.
 */
export const CHECKOUT_SCRIPT = `(() => {
  const root = document.getElementById('checkout');
  const id = root.dataset.session;
  const $ = (sel) => document.getElementById(sel);
  const money = (amount, currency) => (amount / 100).toFixed(2) + ' ' + currency;
  const say = (text, kind) => { const m = $('message'); m.textContent = text; m.className = kind; };
  const setBusy = (busy) => document.querySelectorAll('button').forEach((b) => { b.disabled = busy; });

  async function load() {
    const res = await fetch('/v1/checkout/sessions/' + encodeURIComponent(id));
    const body = await res.json();
    if (!res.ok) { say(body.error ? body.error.message : 'This checkout cannot be loaded.', 'error'); setBusy(true); return; }
    const s = body.data;
    $('event').textContent = s.order.event.name;
    $('when').textContent = new Date(s.order.event.starts_at).toLocaleString();
    $('ticket').textContent = s.order.quantity + ' × ' + s.order.ticket_type.name;
    $('code').textContent = s.order.code;
    $('amount').textContent = money(s.amount, s.currency);
    if (s.order.amount_discount > 0) $('discount').textContent = 'Discount: ' + money(s.order.amount_discount, s.currency);
    if (s.status === 'complete') { say('This checkout is already paid.', 'done'); setBusy(true); }
    else if (s.order.status !== 'pending') { say('This order is ' + s.order.status + '.', 'error'); setBusy(s.order.status !== 'expired'); }
    root.hidden = false;
  }

  async function pay(payload) {
    setBusy(true);
    say('Processing…', 'info');
    try {
      const res = await fetch('/v1/checkout/sessions/' + encodeURIComponent(id) + '/pay', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload),
      });
      const body = await res.json();
      if (!res.ok) { say(body.error ? body.error.message : 'The payment could not be made.', 'error'); setBusy(false); return; }
      const { payment, redirect_to } = body.data;
      if (payment.status === 'failed') {
        say('Payment failed (' + payment.failure_code + '). You can try again.', 'error');
        setBusy(false);
        return;
      }
      say(payment.status === 'pending' ? 'Waiting for the payment to be confirmed…' : 'Paid. Thank you!', 'done');
      if (redirect_to) window.location.assign(redirect_to);
    } catch (err) {
      say('The network failed; try again.', 'error');
      setBusy(false);
    }
  }

  $('mobile-money').addEventListener('submit', (e) => { e.preventDefault(); pay({ method: 'mobile_money', phone: $('phone').value.trim() }); });
  $('card').addEventListener('submit', (e) => { e.preventDefault(); pay({ method: 'card', card_number: $('card-number').value.replace(/\\s+/g, '') }); });
  load().catch(() => say('This checkout cannot be loaded.', 'error'));
})();
`;
