// The live player page: buys access through the tenant's server, opens a playback session with the browser SDK
// (publishable key and the viewer's customer token), and plays the session's signed HLS link with hls.js.
// Each new link the session hands over (tokens are renewed by heartbeats) is loaded without stopping playback.
import { SvcBrowser } from '/sdk-browser.js';
import Hls from '/hls.mjs';

const tenant = document.querySelector('meta[name="tenant-server"]')?.content ?? window.TENANT_SERVER;
const viewer = 'viewer-7';
const post = async (path, body) =>
  (await fetch(`${tenant}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
const $ = (id) => document.getElementById(id);
const video = $('video');

const config = await (await fetch(`${tenant}/config`)).json();
await post('/checkout', { viewer });
$('status').textContent = 'opening…';

const svc = new SvcBrowser({
  publishableKey: config.publishableKey,
  baseUrl: config.apiBaseUrl,
  getCustomerToken: async () => (await post('/token', { viewer })).token,
});

/** Plays `url`: hls.js where Media Source Extensions exist, the browser's own HLS (Safari) elsewhere. */
function play(url) {
  if (Hls.isSupported()) {
    const hls = (window.hls ??= new Hls({ liveSyncDurationCount: 2 }));
    if (!hls.media) hls.attachMedia(video);
    hls.loadSource(url);
    hls.on(Hls.Events.ERROR, (_e, data) => {
      if (data.fatal) $('video-status').textContent = `error: ${data.details}`;
    });
  } else {
    video.src = url;
  }
  void video.play().catch(() => {});
}

video.addEventListener('playing', () => ($('video-status').textContent = `playing ${video.videoWidth}x${video.videoHeight}`));
video.addEventListener('timeupdate', () => ($('time').textContent = video.currentTime.toFixed(1)));

try {
  const session = await svc.openPlayback({ resource: config.streamId, deviceId: (localStorage.deviceId ??= crypto.randomUUID()) });
  window.playbackSession = session;
  $('status').textContent = 'playing';
  play(session.link);
  session.on('link', ({ url }) => play(url));
  session.on('ended', ({ reason }) => {
    $('status').textContent = `ended: ${reason}`;
    window.hls?.destroy();
  });
} catch (err) {
  $('status').textContent = `refused: ${err.code ?? err.message}`;
}
