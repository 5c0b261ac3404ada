// The event's page: books with the browser SDK and sends the buyer to the checkout; back from it, the attendee
// signs in with a code sent to their email, sees their tickets and plays the show with the ticket's entitlement.
// `?event=<slug>&stream=<ls_ id>`: the tenant's site knows which of its streams an event plays.
import { SvcBrowser } from '/sdk-browser.js';

const tenant = document.querySelector('meta[name="tenant-server"]')?.content ?? window.TENANT_SERVER;
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const config = await (await fetch(`${tenant}/config`)).json();
const svc = new SvcBrowser({ publishableKey: config.publishableKey, baseUrl: config.apiBaseUrl });
const event = await svc.getEvent(params.get('event'));
$('event').textContent = event.name;
const show = (form) => ((form.hidden = false), ($('step').textContent = form.id));
const failed = (err) => ($('step').textContent = `error: ${err.code ?? err.message}`);

if (params.get('outcome') !== 'succeeded') {
  show($('book'));
  $('book').onsubmit = async (e) => {
    e.preventDefault();
    const email = $('buyer-email').value;
    const [ticket] = event.ticket_types;
    try {
      const result = await svc.book(event.slug, {
        ticket_id: ticket.id,
        quantity: 2,
        buyer_name: 'Wanjiru K',
        buyer_email: email,
        attendees: [
          { first_name: 'Wanjiru', last_name: 'K', email },
          { first_name: 'Otieno', last_name: 'O' },
        ],
        // The checkout sends the buyer back here with `code` and `outcome`.
        redirect_url: location.href,
      });
      if (!svc.redirectToCheckout(result)) $('step').textContent = 'booked';
    } catch (err) {
      failed(err);
    }
  };
} else {
  show($('sign-in'));
  $('step').textContent = `paid: ${params.get('code')}`;
  $('send-code').onclick = async (e) => {
    e.preventDefault();
    await svc.auth.requestCode({ email: $('email').value }).then(() => ($('step').textContent = 'code sent'), failed);
  };
  $('verify').onclick = async (e) => {
    e.preventDefault();
    try {
      await svc.auth.verifyCode({ email: $('email').value, code: $('code').value });
      const tickets = await svc.listTickets();
      $('tickets').textContent = tickets.map((t) => `${t.order_code} ${t.status}`).join(', ');
      // The customer token comes from the signed-in person (`auth.customerToken()`); the ticket's entitlement lets them in.
      const session = await svc.openPlayback({ resource: params.get('stream'), deviceId: (localStorage.deviceId ??= crypto.randomUUID()) });
      window.playbackSession = session;
      $('status').textContent = 'playing';
      $('link').textContent = session.link;
      session.on('link', ({ url }) => ($('link').textContent = url));
      session.on('ended', ({ reason }) => ($('status').textContent = `ended: ${reason}`));
    } catch (err) {
      failed(err);
    }
  };
}
