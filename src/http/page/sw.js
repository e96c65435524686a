// The service worker: keeps the page's own files so that it opens without a network.
// Only those files are served from the cache; every API call goes to the server, and
// fails in words when there is none.
//
// The server stamps VERSION with a hash of the other files, so a changed page means a
// changed worker: the browser installs it, it fetches every file afresh, and the old
// cache is dropped once it takes over. A page already open keeps the files it loaded with
// until it is reloaded.

const VERSION = '__ASSETS_VERSION__';
const CACHE = `playground-${VERSION}`;
const ASSETS = [
  '/',
  '/app.css',
  '/app.js',
  '/api.js',
  '/board.js',
  '/overlay.js',
  '/scan.js',
  '/manifest.webmanifest',
  '/icon.svg',
];

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // 'no-cache': revalidate with the server, never take a stale copy from the HTTP cache.
      await cache.addAll(ASSETS.map((path) => new Request(path, { cache: 'no-cache' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('playground-') && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const ours =
    event.request.method === 'GET' &&
    url.origin === self.location.origin &&
    ASSETS.includes(url.pathname);
  if (!ours) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const cached = await cache.match(url.pathname);
      return cached ?? fetch(event.request);
    })(),
  );
});
