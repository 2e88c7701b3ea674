// The page's WebCrypto batches off its main thread (web/static/ecdh.js, offThread): each message
// is [id, keys, points, pairs]; the reply [id, x-coordinates] or [id, null, why it was refused].
import { multMany } from "/ecdh.js";

self.onmessage = async ({ data: [id, keys, points, pairs] }) => {
  try {
    const out = await multMany(keys, points, pairs);
    self.postMessage([id, out], [out.buffer]);
  } catch (error) {
    self.postMessage([id, null, String(error && error.message ? error.message : error)]);
  }
};
