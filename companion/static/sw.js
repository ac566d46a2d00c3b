// Service worker.  Static files are this release's, at their content-hashed
// URLs (cache first).  Table pages come from the network; the last copy is
// kept on the phone and shown, marked, when the network is gone.  A page the
// phone never opened gets the offline page.  Form posts are left alone: the
// browser sends them itself (and Back to a posted page is the browser's own),
// while offline.js keeps hands saved without a connection.
//
// A static file, served at /sw.js (scope /).  What it precaches, the offline
// page and every route it knows come from the client config (client.json,
// companion/web/client.py), fetched at install and kept in this release's
// cache.  Pages register it as sw.js?v=<release>: a new release is a new
// address, so the browser installs a new worker for it.
importScripts("static/js/routes.js"); // self.Chinchon.routes; relative to this file, as client.json below

const RELEASE = new URL(self.location.href).searchParams.get("v") || "unversioned";
const STATIC = "chinchon-static-" + RELEASE;
const PAGES = "chinchon-pages"; // kept across releases
const CONFIG = new URL("client.json", self.location.href).pathname;
// Home, a table's scoreboard, its history (with the chart) and hand entry;
// and the QR code the scoreboard shows (routes named in the config).
const KEPT_PAGES = ["home", "scoreboard", "history", "newHand"];
const KEPT_IMAGES = ["qr"];
// A signal this weak is no connection: show the kept copy instead of waiting.
const NETWORK_TIMEOUT_MS = 6000;

// The config, read once per start of the worker: from this release's cache
// (or, should the phone have cleared it, from the server again).
let loading = null;
let known = null;

function settings() {
  if (!loading) {
    loading = caches.open(STATIC)
      .then((cache) => cache.match(CONFIG))
      .then((copy) => copy || fetchConfig())
      .then((response) => response.json())
      .then(learn);
    loading.catch(() => { loading = null; }); // not kept and no network: ask again next time
  }
  return loading;
}

async function fetchConfig() {
  const response = await fetch(CONFIG, { cache: "no-cache", credentials: "same-origin" });
  if (!response.ok) throw new Error("no client config: " + response.status);
  await (await caches.open(STATIC)).put(CONFIG, response.clone());
  return response;
}

function learn(config) {
  const routes = new self.Chinchon.routes.Routes(config.routes);
  known = {
    assets: config.assets,
    offline: config.routes.offline,
    staticPrefix: routes.prefix("static"),
    kept: (path) => routes.any(KEPT_PAGES, path),
    keptImage: (path) => routes.any(KEPT_IMAGES, path),
  };
  return known;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    fetchConfig()
      .then((response) => response.json())
      .then((config) => {
        const s = learn(config);
        loading = Promise.resolve(s);
        return Promise.all([caches.open(STATIC).then((cache) => cache.addAll(s.assets)), keep(s.offline)]);
      })
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((k) => k.startsWith("chinchon-") && k !== STATIC && k !== PAGES).map((k) => caches.delete(k))
      ))
      .then(dropPagesWithoutConfig)
      .then(() => self.clients.claim())
  );
});

// A page kept before pages carried the client config would run today's
// scripts without it (and without the modules it now loads): it goes, and
// comes back when opened with a connection.
async function dropPagesWithoutConfig() {
  const cache = await caches.open(PAGES);
  for (const request of await cache.keys()) {
    const copy = await cache.match(request);
    if (!copy || !(copy.headers.get("Content-Type") || "").startsWith("text/html")) continue;
    if ((await copy.text()).indexOf('name="client-config"') < 0) await cache.delete(request);
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(page(event, url));
  } else if (known) {
    const answer = subresource(known, event, url);
    if (answer) event.respondWith(answer);
  } else {
    // Just started: the config is a moment away.  What it does not claim goes to the network.
    event.respondWith(settings().then((s) => subresource(s, event, url) || fetch(request), () => fetch(request)));
  }
});

function subresource(s, event, url) {
  if (url.pathname.startsWith(s.staticPrefix)) return staticFile(event.request);
  if (s.keptImage(url.pathname)) return image(event, url);
  return null;
}

// A page asks to keep a copy of a page it links to (hand entry, so that a
// hand can be entered offline), of the offline page in its language, or of
// itself when it was opened before this worker ran (a first visit).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.paths)) return;
  event.waitUntil(settings().then((s) => {
    const paths = data.paths.filter((p) => typeof p === "string" && (s.kept(p) || p === s.offline));
    return Promise.all(paths.map((p) => keep(p).catch(() => null)));
  }));
});

async function page(event, url) {
  const s = await settings().catch(() => null);
  const kept = !!s && s.kept(url.pathname);
  try {
    if (self.navigator.onLine === false) throw new Error("offline"); // no need to wait for the network
    const response = await timeout(fetch(event.request), NETWORK_TIMEOUT_MS);
    if (kept) event.waitUntil(store(url.pathname, response.clone()));
    return response;
  } catch (error) {
    const cache = await caches.open(PAGES);
    const copy = kept ? await cache.match(url.pathname) : null;
    if (copy) return marked(copy);
    return (s && (await cache.match(s.offline))) || Response.error();
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
