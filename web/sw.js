// Tavla's service worker. The app shell (built files, listed at build time) is precached; the
// check-in pass and the profile (private, signed in) and the board, calendar and tournament
// pages (public) are network first with the last answer kept, so they show without signal.
const VERSION = "__VERSION__";
const SHELL = __SHELL__;
const SHELL_CACHE = `tavla-shell-${VERSION}`;
const PRIVATE = "tavla-private";
const PUBLIC = "tavla-public";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("tavla-shell-") && k !== SHELL_CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

const PRIVATE_PATHS = [/^\/me$/, /^\/me\/checkin-pass$/];
const PUBLIC_PATHS = [/^\/tournaments$/, /^\/tournaments\/[^/]+$/, /^\/tournaments\/[^/]+\/(board|entries)$/];

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match("/index.html")));
    return;
  }
  if (SHELL.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname).then((hit) => hit || fetch(request)));
    return;
  }
  const kept = PRIVATE_PATHS.some((p) => p.test(url.pathname))
    ? PRIVATE
    : PUBLIC_PATHS.some((p) => p.test(url.pathname))
      ? PUBLIC
      : null;
  if (kept) event.respondWith(networkFirst(request, kept));
});

async function networkFirst(request, name) {
  const key = new Request(request.url); // one copy per URL, whatever the conditional headers
  try {
    const response = await fetch(request);
    if (response.status === 200) {
      const cache = await caches.open(name);
      await cache.put(key, response.clone());
    }
    return response;
  } catch (offline) {
    const hit = await caches.match(key, { ignoreVary: true, ignoreSearch: false });
    if (hit) return hit;
    throw offline;
  }
}
