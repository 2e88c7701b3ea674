// Start-up: show progress while Python loads, then hand the page to the Python UI (web/ui).
import { loadPyodide, version as pyodideVersion } from "/pyodide/pyodide.mjs";
import { Mesh } from "/mesh.js";
import { morphParts, stickToEnd } from "/morph.js";
import { multMany, offThread } from "/ecdh.js";

const bar = document.getElementById("progress-bar");
const label = document.getElementById("progress-label");

function progress(fraction, text) {
  bar.style.width = `${Math.round(fraction * 100)}%`;
  if (text) label.textContent = text;
}

// Count the bytes of every response Pyodide fetches (a teed copy of each body, so nothing is
// downloaded twice) against the expected total.
const EXPECTED_BYTES = 14.4e6; // the runtime files and wheels, decoded; the bar never overshoots

function trackDownloads(expected, from, to) {
  const realFetch = window.fetch.bind(window);
  let loaded = 0;
  window.fetch = async (...args) => {
    const response = await realFetch(...args);
    if (response.body) {
      const reader = response.clone().body.getReader();
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          loaded += value.length;
          progress(from + (to - from) * Math.min(1, loaded / expected));
        }
      })().catch(() => {});
    }
    return response;
  };
  return () => { window.fetch = realFetch; };
}

// A page from plain http:// on another machine is not a secure context: the browser offers no
// crypto.subtle, microphone or camera. Say what to do (open the https:// address the host's
// server printed) instead of leaving an empty table; the game still starts, with the engine's
// pure-Python crypto.
function warnIfInsecure() {
  if (window.isSecureContext) return false;
  const box = document.getElementById("insecure");
  if (!box) return true;
  const secure = `https://${location.host}${location.pathname}${location.search}${location.hash}`;
  for (const link of box.querySelectorAll(".insecure-link")) {
    link.href = secure;
    link.textContent = secure;
  }
  const lang = localStorage.getItem("mt.lang") === "en" ? "en" : "ru"; // the page's language
  for (const block of box.querySelectorAll("[data-lang]")) block.hidden = block.dataset.lang !== lang;
  box.hidden = false;
  return true;
}

// The service worker (sw.js) keeps this build for the next visit, which then starts without the
// network. A new build installs beside the running one (checked on each start); the
// page offers to reload into it. A LAN server's own certificate (an https:// address, not a name)
// is accepted by the player for the page, but a browser never runs a worker from it: not tried.
function workerAllowed() {
  if (!("serviceWorker" in navigator)) return false; // not a secure context
  const address = /^[0-9.]+$|^\[[0-9a-f:.]+\]$/i.test(location.hostname);
  return !(location.protocol === "https:" && address);
}

async function keepOffline() {
  if (!workerAllowed()) return null;
  const workers = navigator.serviceWorker;
  const registration = await workers.register("/sw.js", { scope: "/" });
  const box = document.getElementById("update");
  let accepted = false;
  const offer = (worker) => {
    if (!workers.controller || !box) return; // the first install: nothing older is running
    const lang = localStorage.getItem("mt.lang") === "en" ? "en" : "ru";
    for (const block of box.querySelectorAll("[data-lang]")) block.hidden = block.dataset.lang !== lang;
    box.querySelector("button").onclick = () => {
      accepted = true;
      worker.postMessage({ type: "activate-update" });
    };
    box.hidden = false;
  };
  const watch = (worker) => {
    if (worker.state === "installed") offer(worker);
    else worker.addEventListener("statechange", () => { if (worker.state === "installed") offer(worker); });
  };
  workers.addEventListener("controllerchange", () => { if (accepted) location.reload(); });
  if (registration.waiting) offer(registration.waiting);
  if (registration.installing) watch(registration.installing);
  registration.addEventListener("updatefound", () => watch(registration.installing));
  await registration.update().catch(() => {}); // offline: the next visit checks again
  return registration;
}

// A memory snapshot of a started interpreter (made by snapshot.js in a worker, kept in this
// build's cache under the Pyodide version) lets a later visit skip the interpreter's start: the
// largest part of a start once no file comes over the network. Whatever is wrong with it (missing,
// another runtime, a read or restore that fails) the page starts Python the usual way and drops
// the kept copy, so the next visit makes a fresh one.
const SNAPSHOT = `/pyodide/snapshot-${pyodideVersion}.bin`;
const SNAPSHOT_MAGIC = 1886286592; // Pyodide's snapshot header: magic, header size, JSON size
const WASM_PAGE = 65536;
const snapshots = () => localStorage.getItem("mt.snapshot") !== "off"; // "off": start as before

function askWorker(worker, type, timeoutMs = 3000) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), timeoutMs);
    channel.port1.onmessage = ({ data }) => { clearTimeout(timer); resolve(data); };
    worker.postMessage({ type }, [channel.port2]);
  });
}

// The name of the cache that holds the build a service worker serves (null without an answer).
async function buildCacheName(worker) {
  const reply = worker ? await askWorker(worker, "cache") : null;
  return reply && typeof reply.cache === "string" ? reply.cache : null;
}

function wellFormed(bytes) {
  if (bytes.byteLength < 64 || bytes.byteLength % 4) return false;
  const [magic, header, json] = new Uint32Array(bytes.buffer, bytes.byteOffset, 3);
  return magic === SNAPSHOT_MAGIC && header >= 48 && json <= header - 48 && header < WASM_PAGE
    && (bytes.byteLength - header) % WASM_PAGE === 0 && bytes.byteLength > header;
}

async function keptSnapshot() {
  const controller = workerAllowed() && snapshots() ? navigator.serviceWorker.controller : null;
  const name = await buildCacheName(controller);
  const cache = name && await caches.open(name);
  const hit = cache && await cache.match(SNAPSHOT);
  if (!hit) return null;
  const bytes = new Uint8Array(await hit.arrayBuffer());
  return { cache, bytes, version: hit.headers.get("x-pyodide-version") };
}

async function startPython(options) {
  let kept = null;
  try {
    kept = await keptSnapshot();
  } catch (error) {
    console.warn("snapshot:", error);
  }
  if (kept) {
    try {
      if (kept.version !== pyodideVersion || !wellFormed(kept.bytes)) {
        throw new Error(`not a snapshot of Pyodide ${pyodideVersion}`);
      }
      // A restore that never ends (Pyodide only logs a failed instantiation) falls back too.
      let timer;
      const stuck = new Promise((_, fail) => {
        timer = setTimeout(() => fail(new Error("restore timed out")), 30_000);
      });
      const restore = loadPyodide({ ...options, _loadSnapshot: kept.bytes });
      const pyodide = await Promise.race([restore, stuck]).finally(() => clearTimeout(timer));
      // The snapshot froze the state of anything seeded at its start; seed it again.
      pyodide.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()");
      return { pyodide, from: "snapshot" };
    } catch (error) {
      console.warn("snapshot:", error);
      await kept.cache.delete(SNAPSHOT).catch(() => {});
    }
  }
  return { pyodide: await loadPyodide(options), from: "start" };
}

// After a start without a snapshot, once the lobby has imported what it warms up: make one in a
// worker, so its CPU does not hold up this page. "kept" when the build has one already.
async function keepSnapshot(pyodide, registration) {
  if (!registration || !snapshots()) return "none";
  const name = await buildCacheName((await navigator.serviceWorker.ready).active);
  if (!name) return "none";
  if (await (await caches.open(name)).match(SNAPSHOT)) return "kept";
  const warm = pyodide.pyimport("web.ui.warm");
  const preload = warm.start(); // the lobby's own warm-up (web/ui/warm.py), awaited, not repeated
  (await preload)?.destroy?.();
  preload.destroy();
  warm.destroy();
  const worker = new Worker("/snapshot.js", { type: "module" });
  const reply = await new Promise((resolve) => {
    worker.onmessage = ({ data }) => resolve(data);
    worker.onerror = (event) => resolve({ error: event.message || "the worker did not start" });
    worker.postMessage({ cache: name, path: SNAPSHOT });
  });
  worker.terminate();
  if (reply.error) throw new Error(reply.error);
  return "made";
}

async function main() {
  const insecure = warnIfInsecure();
  progress(0.02, "Загружаем Python…");
  const configPromise = fetch("/config.json").then((response) => response.json());
  const untrack = trackDownloads(EXPECTED_BYTES, 0.02, 0.85);
  const marks = { config: performance.now() };
  const { pyodide, from } = await startPython({
    indexURL: new URL("/pyodide/", location.href).href,
    packages: ["magic-table", "segno"],
  });
  marks.pyodide = performance.now();
  marks.from = from;
  untrack();
  progress(0.9, "Готовим стол…");
  const config = await configPromise;
  // loadPackage failures only log: import explicitly so a missing wheel fails loudly.
  window.magicMorphParts = morphParts; // the table panel's redraw (web/ui/table.py)
  window.magicStickToEnd = stickToEnd; // the chat's scroll to its newest line (web/ui/app.py)
  // WebCrypto batches (engine/fairness/backends/webcrypto.py), in a worker; the page's own if none.
  window.magicCrypto = { multMany: offThread(multMany) };
  const app = pyodide.pyimport("web.ui.app");
  marks.imported = performance.now();
  await app.start({ config, Mesh });
  marks.started = performance.now();
  progress(1, "");
  document.body.classList.add("ready");
  // Milliseconds since navigation start, as the benchmarks compare them with bare Pyodide.
  const interactiveMs = performance.now();
  const offline = keepOffline().catch((error) => console.warn("service worker:", error));
  // "made", "kept" (there is one), "none" (no service worker or snapshots off) or "failed: …".
  const snapshot = offline.then((registration) => keepSnapshot(pyodide, registration))
    .catch((error) => { console.warn("snapshot:", error); return `failed: ${error.message || error}`; });
  window.magicTable = {
    ready: true, pyodide, interactiveMs, marks, secure: !insecure, offline, snapshot,
  };
}

main().catch((error) => {
  console.error(error);
  document.body.classList.add("failed");
  const hint = window.isSecureContext ? "" : " — откройте https://-адрес, который напечатал сервер";
  label.textContent = `Не удалось запустить: ${error.message || error}${hint}`;
});
