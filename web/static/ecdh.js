// A batch of x-only P-256 multiplications in WebCrypto for engine/fairness/backends/webcrypto.py,
// which documents the arguments: one call a batch instead of one per key import and derivation.

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

// WebCrypto runs each call at once on the page's thread: a batch goes SLICE calls per task.
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
