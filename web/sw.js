// Tavla's service worker. The app shell (built files, listed at build time) is precached; the
// check-in pass and the profile (private, signed in) and the board, calendar and tournament
// pages (public) are network first with the last answer kept, so they show without signal.
// /config.json (which stage this is: the cloud's sign-in or the local one) is fetched at install
// and network first after, so a load without signal still knows it is the cloud.
const VERSION = "__VERSION__";
const SHELL = __SHELL__;
const SHELL_CACHE = `tavla-shell-${VERSION}`;
const PRIVATE = "tavla-private";
const PUBLIC = "tavla-public";
const CONFIG = "tavla-config";

/** The stage's /config.json into its cache when there is one (the local stack has none). */
async function keepConfig() {
  try {
    const response = await fetch("/config.json", { cache: "no-cache" });
    if (response.status === 200) await (await caches.open(CONFIG)).put("/config.json", response);
  } catch {
    // no signal while installing: the next online load keeps it
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(keepConfig)
      .then(() => self.skipWaiting()),
  );
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
  if (url.pathname === "/config.json") {
    event.respondWith(networkFirst(request, CONFIG));
    return;
  }
  const kept = PRIVATE_PATHS.some((p) => p.test(url.pathname))
    ? PRIVATE
    : PUBLIC_PATHS.some((p) => p.test(url.pathname))
      ? PUBLIC
      : null;
  if (kept) event.respondWith(networkFirst(request, kept));
});

/** The kept copy's key: one per URL whatever the conditional headers, and without the board's
 * `v` (a cache key for the edge only, decision 0025), so a read without signal finds the last
 * board whichever delta made the screen read it. */
function keptKey(url) {
  const kept = new URL(url);
  kept.searchParams.delete("v");
  return new Request(kept.href);
}

async function networkFirst(request, name) {
  const key = keptKey(request.url);
  try {
    const response = await fetch(request);
    if (response.status === 200) {
      const cache = await caches.open(name);
      await cache.put(key, response.clone());
    }
    return response;
  } catch (offline) {
    const hit = await caches.match(key, { ignoreVary: true, ignoreSearch: false });
    // the last answer, marked so the page can say it is not live
    if (hit) return new Response(hit.body, { status: hit.status, headers: marked(hit.headers) });
    throw offline;
  }
}

function marked(headers) {
  const copy = new Headers(headers);
  copy.set("x-tavla-offline", "1");
  return copy;
}

// Notices by Web Push (web/src/push.ts subscribes): the payload is {title, body, url}, already
// in the person's language; a tap opens (or focuses) the notice's page.
self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = { body: event.data ? event.data.text() : "" };
  }
  const title = notice.title || "Tavla";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: notice.body || "",
      icon: "/icon.svg",
      tag: notice.tag, // a repeat of one notice replaces it rather than stacking
      data: { url: notice.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
      const same = open.find((c) => c.url === url);
      if (same) return same.focus();
      return self.clients.openWindow(url);
    }),
  );
});
