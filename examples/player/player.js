// The player page: buys access through the tenant's server, then the browser SDK opens a playback session
// with the publishable key and the viewer's customer token, keeps it alive and hands over the links.
import { SvcBrowser } from '/sdk-browser.js';

const tenant = document.querySelector('meta[name="tenant-server"]')?.content ?? window.TENANT_SERVER;
const viewer = 'viewer-42';
const post = async (path, body) =>
  (await fetch(`${tenant}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
const $ = (id) => document.getElementById(id);

const config = await (await fetch(`${tenant}/config`)).json();
await post('/checkout', { viewer });
$('status').textContent = 'opening…';

const svc = new SvcBrowser({
  publishableKey: config.publishableKey,
  baseUrl: config.apiBaseUrl,
  getCustomerToken: async () => (await post('/token', { viewer })).token,
});

let beats = 0;
try {
  const session = await svc.openPlayback({ resource: config.streamId, deviceId: (localStorage.deviceId ??= crypto.randomUUID()) });
  window.playbackSession = session;
  $('status').textContent = 'playing';
  $('link').textContent = session.link;
  // A real page points its <video> (hls.js or native HLS) at each new link.
  session.on('link', ({ url }) => ($('link').textContent = url));
  session.on('heartbeat', () => ($('beats').textContent = String(++beats)));
  session.on('ended', ({ reason }) => ($('status').textContent = `ended: ${reason}`));
} catch (err) {
  $('status').textContent = `refused: ${err.code ?? err.message}`;
}
