// The service worker: the page keeps working offline after the first visit.
//
// It stores only the page's own files, as named by static/vendor/manifest.json
// (build.py lists them): the page, its modules and styles, the Pyodide core and
// the wheels. Only GET requests for those files are ever answered from or put
// into its cache; the user's text never travels in a request (the page sends
// none), so it is never cached or sent anywhere.
//
// Content-addressed files (static/vendor/pyodide/<hash>/, wheels/<hash>/..., as
// the manifest's `immutable` pattern says: build.py defines the layout) go
// through the browser's HTTP cache, which keeps them for good (they never change
// under their name) and asks no server; Cache Storage answers when offline.
// Everything else goes to the network first (so an update is seen at once) and
// falls back to the cache when offline.

const CACHE = "chunkwise-page";
const MANIFEST = new URL("static/vendor/manifest.json", self.registration.scope).href;
// The manifest's pattern of a content-addressed file's URL path, as a promise of a
// RegExp (or null): from the manifest last stored, read once per start of this worker.
let immutable = null;
const contentAddressed = () => (immutable ??= caches.match(MANIFEST)
  .then((res) => res && res.json())
  .then((manifest) => (manifest && manifest.immutable ? new RegExp(manifest.immutable) : null))
  .catch(() => null));

// Every file of the current build, as absolute URLs: `stored` ahead of need, and
// `kept` (those, and the preset tokenizer files, stored when first used).
async function buildFiles() {
  const res = await fetch(MANIFEST, { cache: "no-cache" });
  if (!res.ok) throw new Error(`manifest.json: HTTP ${res.status}`);
  const manifest = await res.json();
  const vendor = new URL("static/vendor/", self.registration.scope);
  const files = [
    ...manifest.page.map((path) => new URL(path, self.registration.scope).href),
    MANIFEST,
    ...manifest.pyodide_files.map((name) => new URL(manifest.pyodide_dir + name, vendor).href),
    ...manifest.install.map((path) => new URL(path, vendor).href),
  ];
  const onDemand = Object.values(manifest.tokenizers || {}).map((path) => new URL(path, vendor).href);
  return { stored: files, kept: new Set([...files, ...onDemand]), immutable: new RegExp(manifest.immutable) };
}

// Store this build's files, and forget any other build's.
async function store() {
  const cache = await caches.open(CACHE);
  const { stored, kept, immutable: pattern } = await buildFiles();
  immutable = Promise.resolve(pattern);
  const have = new Set((await cache.keys()).map((r) => r.url));
  await cache.addAll(stored.filter((url) => !have.has(url) || !pattern.test(new URL(url).pathname)));
  await Promise.all((await cache.keys()).filter((r) => !kept.has(r.url)).map((r) => cache.delete(r)));
}

self.addEventListener("install", (event) => {
  event.waitUntil(store().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

// The page asks for a refresh after a new build was seen (a new manifest).
self.addEventListener("message", (event) => {
  if (event.data === "refresh") event.waitUntil(store().catch(() => {}));
});

// A content-addressed file goes through the HTTP cache, where it is kept for good:
// Chromium reuses its compiled WebAssembly only for a response it fetched itself
// (one answered from Cache Storage compiled Pyodide again on every reload). Cache
// Storage answers when the network cannot; a file not stored yet (a preset's
// tokenizer) is stored once fetched.
async function throughHttpCache(request) {
  const stored = caches.match(request);
  let res;
  try {
    res = await fetch(request);
  } catch (err) {
    const hit = await stored;
    if (hit) return hit;
    throw err;
  }
  if (res.ok && !(await stored)) {
    const copy = res.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy)).catch(() => {});
  }
  return res;
}

async function respond(request, url) {
  if ((await contentAddressed())?.test(url.pathname)) return throughHttpCache(request);
  try {
    return await fetch(request);
  } catch {
    const hit = await caches.match(request, { ignoreSearch: true });
    if (hit) return hit;
    throw new Error(`offline, and ${url.pathname} is not stored`);
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return; // not ours: untouched
  event.respondWith(respond(request, url));
});
