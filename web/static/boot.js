// Start-up: show progress while Python loads, then hand the page to the Python UI (web/ui).
import { loadPyodide } from "/pyodide/pyodide.mjs";
import { Mesh } from "/mesh.js";

const bar = document.getElementById("progress-bar");
const label = document.getElementById("progress-label");
const started = performance.now();

function progress(fraction, text) {
  bar.style.width = `${Math.round(fraction * 100)}%`;
  if (text) label.textContent = text;
}

// Download the two large runtime files ourselves to show real byte progress; Pyodide then
// finds them in the HTTP cache.
async function prefetch(paths, from, to) {
  const totals = new Map();
  const loaded = new Map();
  const update = () => {
    const total = [...totals.values()].reduce((a, b) => a + b, 0) || 1;
    const done = [...loaded.values()].reduce((a, b) => a + b, 0);
    progress(from + (to - from) * Math.min(1, done / total));
  };
  await Promise.all(
    paths.map(async (path) => {
      const response = await fetch(path);
      if (!response.ok || !response.body) throw new Error(`${path}: HTTP ${response.status}`);
      totals.set(path, Number(response.headers.get("content-length")) || 1);
      loaded.set(path, 0);
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        loaded.set(path, loaded.get(path) + value.length);
        update();
      }
    }),
  );
}

async function main() {
  progress(0.02, "Загружаем Python…");
  const configPromise = fetch("/config.json").then((r) => r.json());
  await prefetch(["/pyodide/pyodide.asm.wasm", "/pyodide/python_stdlib.zip"], 0.02, 0.7);
  progress(0.72, "Запускаем Python…");
  const pyodide = await loadPyodide({
    indexURL: new URL("/pyodide/", location.href).href,
    packages: ["magic-table", "segno"],
  });
  progress(0.9, "Готовим стол…");
  const config = await configPromise;
  // loadPackage failures only log: import explicitly so a missing wheel fails loudly.
  const app = pyodide.pyimport("web.ui.app");
  await app.start({ config, Mesh, loadMs: performance.now() - started });
  progress(1, "");
  document.body.classList.add("ready");
  window.magicTable = { ready: true, pyodide, interactiveMs: performance.now() - started };
}

main().catch((error) => {
  console.error(error);
  document.body.classList.add("failed");
  label.textContent = `Не удалось запустить: ${error.message || error}`;
});
