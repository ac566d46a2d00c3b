// Service worker.  Static files are this release's, at their content-hashed
// URLs (cache first).  Table pages come from the network; the last copy is
// kept on the phone and shown, marked, when the network is gone.  A page the
// phone never opened gets the offline page.  Form posts are left alone: the
// browser sends them itself (and Back to a posted page is the browser's own),
// while offline.js keeps hands saved without a connection.
const VERSION = "{{ version }}";
const STATIC = "chinchon-static-" + VERSION;
const PAGES = "chinchon-pages"; // kept across releases
const ASSETS = {{ assets|tojson }};
const OFFLINE = "{{ url_for('main.offline') }}";
// Home, a table's scoreboard, its history (with the chart) and hand entry;
// and the QR code the scoreboard shows.
const KEPT = /^\/(t\/[^/]+(\/history|\/hands\/new)?)?$/;
const KEPT_IMAGE = /^\/t\/[^/]+\/qr\.svg$/;
// A signal this weak is no connection: show the kept copy instead of waiting.
const NETWORK_TIMEOUT_MS = 6000;

self.addEventListener("install", (event) => {
  event.waitUntil(
    Promise.all([
      caches.open(STATIC).then((cache) => cache.addAll(ASSETS)),
      keep(OFFLINE),
    ]).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((k) => k.startsWith("chinchon-") && k !== STATIC && k !== PAGES).map((k) => caches.delete(k))
      ))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(page(event, url));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(staticFile(request));
  } else if (KEPT_IMAGE.test(url.pathname)) {
    event.respondWith(image(event, url));
  }
});

// A page asks to keep a copy of a page it links to (hand entry, so that a
// hand can be entered offline), of the offline page in its language, or of
// itself when it was opened before this worker ran (a first visit).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.paths)) return;
  const paths = data.paths.filter((p) => typeof p === "string" && (KEPT.test(p) || p === OFFLINE));
  event.waitUntil(Promise.all(paths.map((p) => keep(p).catch(() => null))));
});

async function page(event, url) {
  const kept = KEPT.test(url.pathname);
  try {
    if (self.navigator.onLine === false) throw new Error("offline"); // no need to wait for the network
    const response = await timeout(fetch(event.request), NETWORK_TIMEOUT_MS);
    if (kept) event.waitUntil(store(url.pathname, response.clone()));
    return response;
  } catch (error) {
    const cache = await caches.open(PAGES);
    const copy = kept ? await cache.match(url.pathname) : null;
    if (copy) return marked(copy);
    return (await cache.match(OFFLINE)) || Response.error();
  }
}

// By path and query: the read-only link's code is another image.
async function image(event, url) {
  const key = url.pathname + url.search;
  try {
    const response = await fetch(event.request);
    event.waitUntil(store(key, response.clone()));
    return response;
  } catch (error) {
    return (await caches.match(key)) || Response.error();
  }
}

async function keep(path) {
  return store(path, await fetch(path, { credentials: "same-origin" }));
}

async function store(path, response) {
  const cache = await caches.open(PAGES);
  if (response.status === 404 || response.status === 410) return cache.delete(path);
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok || response.redirected || !/^(text\/html|image\/svg\+xml)/.test(type)) return false;
  const headers = new Headers(response.headers);
  // The body is kept as read, decoded: its compressed length and encoding no longer apply.
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  headers.set("X-Kept-At", String(Date.now()));
  const body = await response.blob();
  return cache.put(path, new Response(body, { status: response.status, statusText: response.statusText, headers }));
}

// The kept copy, with the time it was kept on <body> for offline.js to show.
async function marked(copy) {
  const html = await copy.text();
  const headers = new Headers(copy.headers);
  headers.delete("Content-Length");
  const at = Number(copy.headers.get("X-Kept-At")) || 0;
  return new Response(html.replace("<body", '<body data-kept-at="' + at + '"'), { status: 200, headers });
}

async function staticFile(request) {
  const hit = await caches.match(request);
  if (hit) return hit;
  try {
    return await fetch(request);
  } catch (error) {
    // A page kept from an earlier release asks for its files at their old
    // hashes: offline, this release's copy is the best there is.
    return (await caches.match(request, { ignoreSearch: true })) || Response.error();
  }
}

function timeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then((value) => { clearTimeout(timer); resolve(value); }, (error) => { clearTimeout(timer); reject(error); });
  });
}
