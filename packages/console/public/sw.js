// The console's service worker: the app shell and its chunks stay available offline, so the door page opens and
// scans without a network. API calls are never cached: scans made offline wait in the page's queue for the sync.
const CACHE = 'svc-console-v1';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(['/console/', '/console/manifest.webmanifest', '/console/icon.svg'])));
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k)))).then(() => self.clients.claim()),
  );
});

/** Keeps a copy of a good answer (cloned before the page reads it) and hands the answer on. */
function keep(key, res) {
  if (res.ok) {
    const copy = res.clone();
    caches.open(CACHE).then((c) => c.put(key, copy));
  }
  return res;
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || !url.pathname.startsWith('/console')) return;
  if (url.pathname.startsWith('/console/assets/')) {
    // Hashed names never change: the cache first, the network once.
    event.respondWith(
      caches.match(event.request).then(
        (hit) => hit || fetch(event.request).then((res) => keep(event.request, res)),
      ),
    );
    return;
  }
  if (event.request.mode === 'navigate') {
    // The newest shell when online; the kept one when not.
    event.respondWith(
      fetch(event.request)
        .then((res) => keep('/console/', res))
        .catch(() => caches.match('/console/')),
    );
    return;
  }
  event.respondWith(fetch(event.request).catch(() => caches.match(event.request)));
});
