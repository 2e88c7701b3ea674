// Service worker: keeps one build of the site in Cache Storage, keyed by the build's hash, so a
// later visit starts without the network. `python -m web.build` writes the build's manifest into
// the line below; a new build is a new script, which the browser installs next to the old one and
// the page offers to reload into (web/static/boot.js).
// The install fetches only the `start` files (the page, its scripts and styles, the runtime, the
// wheels, the fonts); a `later` file (card art, the table's pictures) is fetched the first time a
// page asks for it and kept in the same cache from then on.
const MANIFEST = /* build manifest */ null;

const PREFIX = "magic-table-";
const CACHE = PREFIX + (MANIFEST ? MANIFEST.build : "unbuilt");
const START = MANIFEST ? MANIFEST.start : [];
const FILES = new Set(START);
// The folders of the `later` files (web/offline.py): any file of the build under one of them.
const LATER = MANIFEST ? MANIFEST.later : [];
const PAGE = "/index.html";

self.addEventListener("install", (event) => {
  // A script without its manifest (fetched while a build was being written) never installs: the
  // browser keeps the build it has, and checks again on a later visit.
  if (!MANIFEST) {
    event.waitUntil(Promise.reject(new Error("sw.js without its build manifest")));
    return;
  }
  // Revalidate each file against the server (an unchanged file costs a 304, not its bytes).
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      cache.addAll(START.map((url) => new Request(url, { cache: "no-cache" })))),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((names) => Promise.all(
      names.filter((name) => name.startsWith(PREFIX) && name !== CACHE)
        .map((name) => caches.delete(name)))),
  );
});

self.addEventListener("message", (event) => {
  if (!event.data) return;
  if (event.data.type === "activate-update") self.skipWaiting();
  // The page asks which cache holds its build: the interpreter snapshot is kept there too.
  if (event.data.type === "cache" && event.ports[0]) event.ports[0].postMessage({ cache: CACHE });
});

function cachedPath(request) {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return null;
  if (request.mode === "navigate" && (url.pathname === "/" || url.pathname.startsWith("/r/"))) {
    return PAGE;
  }
  const ours = FILES.has(url.pathname) || LATER.some((folder) => url.pathname.startsWith(folder));
  return ours ? url.pathname : null;
}

// A file of the build from its cache; on a miss from the network, kept when it came whole.
async function fromBuild(request, path) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(path);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.status === 200 && response.type === "basic") {
    await cache.put(path, response.clone()).catch((error) => console.warn("cache:", error));
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const path = cachedPath(event.request);
  if (path === null) return; // the network, as without a service worker
  event.respondWith(fromBuild(event.request, path));
});
