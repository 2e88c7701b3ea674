// A memory snapshot of a started Python, made off the page's thread once per build (boot.js
// starts this worker after a first visit is interactive and its service worker holds the build).
// A later visit restores the snapshot instead of starting the interpreter again. The worker reads
// every runtime file from the build's cache, so making it costs nothing on the wire.
import { loadPyodide, version } from "/pyodide/pyodide.mjs";

self.onmessage = async ({ data }) => {
  try {
    const cache = await caches.open(data.cache);
    const network = self.fetch.bind(self);
    self.fetch = async (input, init) => (await cache.match(input)) || network(input, init);
    const pyodide = await loadPyodide({
      indexURL: new URL("/pyodide/", self.location.href).href,
      _makeSnapshot: true,
    });
    const snapshot = pyodide.makeMemorySnapshot();
    const headers = { "content-type": "application/octet-stream", "x-pyodide-version": version };
    await cache.put(data.path, new Response(snapshot, { headers }));
    self.postMessage({ made: snapshot.length });
  } catch (error) {
    self.postMessage({ error: String((error && error.message) || error) });
  }
};
