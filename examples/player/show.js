// The live show's event page, for the fan, with the browser SDK:
// sign in with a code sent to the phone → book two tickets as themselves → the checkout page → back with
// `outcome=succeeded`: their tickets → watch the show (a customer token from the identity service opens the
// playback session; heartbeats keep it; a refund ends it at the next one).
// `?event=<slug>&stream=<ls_ id>`: the tenant's site knows which of its streams an event plays.
import { SvcBrowser } from '/sdk-browser.js';

const tenant = document.querySelector('meta[name="tenant-server"]')?.content ?? window.TENANT_SERVER;
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const config = await (await fetch(`${tenant}/config`)).json();
// The signed-in session outlives the trip to the checkout page.
const authStorage = {
  get: () => JSON.parse(localStorage.getItem('svc-session') ?? 'null'),
  set: (session) => localStorage.setItem('svc-session', JSON.stringify(session)),
  clear: () => localStorage.removeItem('svc-session'),
};
const svc = new SvcBrowser({ publishableKey: config.publishableKey, baseUrl: config.apiBaseUrl, authStorage });
const event = await svc.getEvent(params.get('event'));
$('event').textContent = event.name;
const show = (form) => ((form.hidden = false), ($('step').textContent = form.id));
const failed = (err) => ($('step').textContent = `error: ${err.code ?? err.message}`);

$('send-code').onclick = async (e) => {
  e.preventDefault();
  await svc.auth.requestCode({ phone: $('phone').value }).then(() => ($('step').textContent = 'code sent'), failed);
};
$('verify').onclick = async (e) => {
  e.preventDefault();
  try {
    await svc.auth.verifyCode({ phone: $('phone').value, code: $('code').value });
    $('sign-in').hidden = true;
    show($('book'));
  } catch (err) {
    failed(err);
  }
};

$('book').onsubmit = async (e) => {
  e.preventDefault();
  const [ticket] = event.ticket_types;
  try {
    // Signed in, the fan books as themselves: the first ticket (no email of its own) is theirs, with the stream.
    const result = await svc.book(event.slug, {
      ticket_id: ticket.id,
      quantity: 2,
      buyer_name: 'Wanjiru K',
      attendees: [
        { first_name: 'Wanjiru', last_name: 'K' },
        { first_name: 'Otieno', last_name: 'O', email: $('guest-email').value },
      ],
      // The checkout sends the fan back here with `code` and `outcome`.
      redirect_url: location.href,
    });
    if (!svc.redirectToCheckout(result)) $('step').textContent = 'booked';
  } catch (err) {
    failed(err);
  }
};

$('play').onclick = async (e) => {
  e.preventDefault();
  try {
    // No `getCustomerToken`: the signed-in fan's customer token comes from `POST /auth/v1/customer_token`.
    const session = await svc.openPlayback({ resource: params.get('stream'), deviceId: (localStorage.deviceId ??= crypto.randomUUID()) });
    window.playbackSession = session;
    $('status').textContent = 'playing';
    $('link').textContent = session.link;
    let beats = 0;
    session.on('link', ({ url }) => ($('link').textContent = url));
    session.on('heartbeat', () => ($('beats').textContent = String(++beats)));
    session.on('ended', ({ reason }) => ($('status').textContent = `ended: ${reason}`));
  } catch (err) {
    $('status').textContent = `refused: ${err.code ?? err.message}`;
  }
};

if (params.get('outcome') === 'succeeded') {
  $('step').textContent = `paid: ${params.get('code')}`;
  try {
    const tickets = await svc.listTickets();
    // Each ticket's secret is the code its holder shows at the door.
    window.tickets = tickets;
    $('tickets').textContent = tickets.map((t) => `${t.order_code} ${t.status}`).join(', ');
    show($('watch'));
  } catch (err) {
    failed(err);
  }
} else if (await svc.auth.getSession()) show($('book'));
else show($('sign-in'));
