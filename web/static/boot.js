// Start-up: show progress while Python loads, then hand the page to the Python UI (web/ui).
import { loadPyodide } from "/pyodide/pyodide.mjs";
import { Mesh } from "/mesh.js";
import { morph } from "/morph.js";

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

async function main() {
  const insecure = warnIfInsecure();
  progress(0.02, "Загружаем Python…");
  const configPromise = fetch("/config.json").then((response) => response.json());
  const untrack = trackDownloads(EXPECTED_BYTES, 0.02, 0.85);
  const marks = { config: performance.now() };
  const pyodide = await loadPyodide({
    indexURL: new URL("/pyodide/", location.href).href,
    packages: ["magic-table", "segno"],
  });
  marks.pyodide = performance.now();
  untrack();
  progress(0.9, "Готовим стол…");
  const config = await configPromise;
  // loadPackage failures only log: import explicitly so a missing wheel fails loudly.
  window.magicMorph = morph; // the table panel's redraw (web/ui/table.py)
  const app = pyodide.pyimport("web.ui.app");
  marks.imported = performance.now();
  await app.start({ config, Mesh });
  marks.started = performance.now();
  progress(1, "");
  document.body.classList.add("ready");
  // Milliseconds since navigation start, as the benchmarks compare them with bare Pyodide.
  window.magicTable = {
    ready: true, pyodide, interactiveMs: performance.now(), marks, secure: !insecure,
    offline: keepOffline().catch((error) => console.warn("service worker:", error)),
  };
}

main().catch((error) => {
  console.error(error);
  document.body.classList.add("failed");
  const hint = window.isSecureContext ? "" : " — откройте https://-адрес, который напечатал сервер";
  label.textContent = `Не удалось запустить: ${error.message || error}${hint}`;
});
