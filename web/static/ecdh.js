// A batch of x-only P-256 multiplications in WebCrypto for engine/fairness/backends/webcrypto.py,
// which documents the arguments: one call a batch instead of one per key import and derivation.
// The page runs its batches in a worker (offThread): WebCrypto runs each call on the thread that
// makes it, and a shuffle's or a deal's hundreds of imports and derivations held the page's own
// thread, where the next move's entry and redraw waited behind them.

const ECDH = { name: "ECDH", namedCurve: "P-256" };
const KEY = 67;
const POINT = 33;
const X = 32;

function parts(bytes, size) {
  if (bytes.length % size !== 0) throw new RangeError(`not a whole number of ${size}-byte parts`);
  const out = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

// WebCrypto runs each call on the thread that makes it: on the page's own thread (no worker) a
// batch goes SLICE calls per task; in the worker the pauses cost next to nothing.
const SLICE = 16;
const pause = () => (globalThis.scheduler?.yield ? scheduler.yield() : new Promise((r) => setTimeout(r)));

async function sliced(items, call) {
  const out = [];
  for (let at = 0; at < items.length; at += SLICE) {
    if (at) await pause();
    out.push(...(await Promise.all(items.slice(at, at + SLICE).map(call))));
  }
  return out;
}

export async function multMany(keys, points, pairs) {
  const subtle = crypto.subtle;
  const privates = await sliced(parts(keys, KEY), (k) => subtle.importKey("pkcs8", k, ECDH, false, ["deriveBits"]));
  const publics = await sliced(parts(points, POINT), (p) => subtle.importKey("raw", p, ECDH, true, []));
  const index = new DataView(pairs.buffer, pairs.byteOffset, pairs.byteLength);
  const count = pairs.byteLength / 8;
  const pairIds = Array.from({ length: count }, (_, i) => i);
  const bits = await sliced(pairIds, (i) => {
    const key = privates[index.getUint32(8 * i, true)];
    const point = publics[index.getUint32(8 * i + 4, true)];
    if (key === undefined || point === undefined) throw new RangeError("a pair names no key or point");
    return subtle.deriveBits({ name: "ECDH", public: point }, key, 256);
  });
  const out = new Uint8Array(count * X);
  bits.forEach((b, i) => out.set(new Uint8Array(b), i * X));
  return out;
}

// multMany in a worker of its own (ecdh-worker.js), started at the first batch. If no worker
// starts, or it fails, the page's own multMany takes the batches (SLICE calls per task of the
// page), those already sent included: a broken worker must not read as a refused point.
export function offThread(inPage) {
  let worker = null;
  let next = 0;
  const waiting = new Map();
  const fallBack = () => {
    if (worker) worker.terminate();
    worker = false;
    for (const { args, resolve, reject } of waiting.values()) inPage(...args).then(resolve, reject);
    waiting.clear();
  };
  const start = () => {
    worker = new Worker("/ecdh-worker.js", { type: "module" });
    worker.onmessage = ({ data: [id, out, why] }) => {
      const asked = waiting.get(id);
      if (!asked) return; // taken over by the page already
      waiting.delete(id);
      if (out) asked.resolve(out);
      else asked.reject(new Error(why));
    };
    worker.onerror = fallBack;
  };
  return (...args) => {
    if (worker === null) {
      try {
        start();
      } catch {
        worker = false;
      }
    }
    if (!worker) return inPage(...args);
    const id = next++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { args, resolve, reject });
      worker.postMessage([id, ...args]);
    });
  };
}
