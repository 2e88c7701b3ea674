// One batch of x-only scalar multiplications on P-256 in WebCrypto, for the page's crypto backend
// (engine/fairness/backends/webcrypto.py). Python hands over three byte arrays and takes one back,
// so a batch of a deck's 97 cards crosses between Python and JavaScript four times instead of
// several hundred (every key import and derivation was a call with its own conversions).
//   keys:   the PKCS#8 DER private keys, each KEY bytes, one after another
//   points: the SEC1 compressed public points, each POINT bytes
//   pairs:  little-endian 32-bit indices, a key's then a point's, for each multiplication
// Resolves to the 32-byte x-coordinates of the products, in the order of `pairs`; rejects when
// WebCrypto refuses a key or a point (an x that is not on the curve).

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

export async function multMany(keys, points, pairs) {
  const subtle = crypto.subtle;
  const [privates, publics] = await Promise.all([
    Promise.all(parts(keys, KEY).map((k) => subtle.importKey("pkcs8", k, ECDH, false, ["deriveBits"]))),
    Promise.all(parts(points, POINT).map((p) => subtle.importKey("raw", p, ECDH, true, []))),
  ]);
  const index = new DataView(pairs.buffer, pairs.byteOffset, pairs.byteLength);
  const count = pairs.byteLength / 8;
  const derived = [];
  for (let i = 0; i < count; i++) {
    const key = privates[index.getUint32(8 * i, true)];
    const point = publics[index.getUint32(8 * i + 4, true)];
    if (key === undefined || point === undefined) throw new RangeError("a pair names no key or point");
    derived.push(subtle.deriveBits({ name: "ECDH", public: point }, key, 256));
  }
  const bits = await Promise.all(derived);
  const out = new Uint8Array(count * X);
  bits.forEach((b, i) => out.set(new Uint8Array(b), i * X));
  return out;
}
