// A player page on the tenant's own site: the publishable key plus a customer token from the tenant's
// server, then the playback session keeps itself alive and hands the player its links.
import { SvcBrowser } from '/sdk-browser.js';

const config = await (await fetch('/config')).json();
const svc = new SvcBrowser({
  publishableKey: config.publishableKey,
  baseUrl: config.apiBaseUrl,
  getCustomerToken: async () => (await (await fetch('/token', { method: 'POST' })).json()).token,
});

const $ = (id) => document.getElementById(id);
let beats = 0;
try {
  const session = await svc.openPlayback({ resource: config.streamId, deviceId: localStorage.deviceId ??= crypto.randomUUID() });
  window.playbackSession = session;
  $('status').textContent = 'playing';
  session.on('link', ({ url }) => ($('link').textContent = url)); // a real page sets its <video> source here
  session.on('heartbeat', () => ($('beats').textContent = String(++beats)));
  session.on('ended', ({ reason }) => ($('status').textContent = `ended: ${reason}`));
} catch (err) {
  $('status').textContent = `refused: ${err.code ?? err.message}`;
}
