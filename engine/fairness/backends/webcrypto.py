"""Browser backend: WebCrypto through Pyodide's ``js`` module (importable only under Pyodide).

Masking uses ECDH ``deriveBits``: the scalar is imported as a PKCS#8 private key without its
public part, the x-coordinate as a compressed raw public key, and a batch of derivations runs in
the page's helper ``window.magicCrypto.multMany`` (``web/static/ecdh.js``): Python hands over the
keys, the points and the pairs as three byte arrays and reads one back, instead of a call with its
own conversions per key and per derivation. Its arguments: the PKCS#8 DER private keys (67 bytes
each) one after another, the SEC1 compressed points (33 bytes each), and for each multiplication
a key's then a point's index as little-endian 32-bit numbers; it resolves to the 32-byte
x-coordinates of the products in that order, and rejects when WebCrypto refuses a key or a point.
Keys are handed in and out as plain values (``KeyPair``), so the secret bundle a browser stores is
the same as on CPython.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

import js  # only present in Pyodide
from pyodide.ffi import JsException, to_js

from engine.fairness import curve
from engine.fairness.backends.base import CryptoBackend, CryptoError, KeyPair
from engine.fairness.backends.encoding import from_b64url, jwk_private, pkcs8_from_scalar

# A page that is not a secure context (plain http:// from another machine) has no
# ``crypto.subtle``; Pyodide then raises AttributeError (or gives None). Either way this backend
# is not available, which ``available_backends`` understands as an ImportError.
_SUBTLE: Any = getattr(getattr(js, "crypto", None), "subtle", None)
if _SUBTLE is None:
    raise ImportError("crypto.subtle is missing: the page is not a secure context")
# The page's batch helper (web/static/ecdh.js), set by boot.js before Python starts the app.
_MULT_MANY: Any = getattr(getattr(js, "magicCrypto", None), "multMany", None)
if _MULT_MANY is None:
    raise ImportError("window.magicCrypto.multMany is missing: not the game's page")


def _obj(value: Any) -> Any:
    """Python dict/list → plain JS object/array (not a Map)."""
    return to_js(value, dict_converter=js.Object.fromEntries)


# Made once: WebCrypto reads an algorithm's fields and keeps nothing of the object.
_ECDH = _obj({"name": "ECDH", "namedCurve": "P-256"})
_ECDSA = _obj({"name": "ECDSA", "namedCurve": "P-256"})
_SIGN = _obj({"name": "ECDSA", "hash": "SHA-256"})
_SIGN_USE, _VERIFY_USE = _obj(["sign"]), _obj(["verify"])


def _u8(data: bytes) -> Any:
    array = js.Uint8Array.new(len(data))
    array.assign(data)
    return array


def _bytes(buffer: Any) -> bytes:
    return bytes(js.Uint8Array.new(buffer).to_py())


class WebCryptoBackend(CryptoBackend):
    """``crypto.subtle`` in the page; the page owner tests it in Chromium."""

    name = "webcrypto"

    def __init__(self) -> None:
        self._sign_keys: dict[int, Any] = {}
        self._verify_keys: dict[bytes, Any] = {}
        # A pair of keys always agrees on the same secret, and an AES key bytes on the same
        # handle: a box sealed or opened between two seats again costs one WebCrypto call (the
        # cipher), not five (two key imports and a derivation, an AES key import, the cipher).
        self._shared: dict[tuple[int, bytes], bytes] = {}
        self._aes_keys: dict[tuple[bytes, str], Any] = {}

    async def mult_many(self, pairs: Sequence[tuple[int, int]]) -> list[int]:
        """All pairs as one batch of ECDH derivations in the page's helper."""
        for k, x in pairs:
            if not 0 < k < curve.N or not 0 <= x < curve.P:
                raise CryptoError("scalar or x-coordinate out of range")
        scalars = {k: i for i, k in enumerate(sorted({k for k, _ in pairs}))}
        xs = {x: i for i, x in enumerate(sorted({x for _, x in pairs}))}
        keys = b"".join(map(pkcs8_from_scalar, scalars))
        points = b"".join(map(curve.compressed_x, xs))
        indices = [i for k, x in pairs for i in (scalars[k], xs[x])]
        order = struct.pack(f"<{len(indices)}I", *indices)
        try:
            out = _bytes(await _MULT_MANY(_u8(keys), _u8(points), _u8(order)))
        except JsException as exc:
            raise CryptoError(f"WebCrypto refused a point or scalar: {exc}") from exc
        return [int.from_bytes(out[32 * i : 32 * i + 32], "big") for i in range(len(pairs))]

    async def generate_keypair(self) -> KeyPair:
        """Generate in WebCrypto, export as JWK to keep plain values."""
        pair = await _SUBTLE.generateKey(_ECDSA, True, _obj(["sign", "verify"]))
        jwk = await _SUBTLE.exportKey("jwk", pair.privateKey)
        d = int.from_bytes(from_b64url(jwk.d), "big")
        public = b"\x04" + from_b64url(jwk.x) + from_b64url(jwk.y)
        return KeyPair(d, public)

    async def sign(self, key: KeyPair, data: bytes) -> bytes:
        """WebCrypto already returns ``r ‖ s``."""
        handle = self._sign_keys.get(key.private)
        if handle is None:
            handle = await _SUBTLE.importKey(
                "jwk",
                _obj(jwk_private(key.private, key.public)),
                _ECDSA,
                False,
                _SIGN_USE,
            )
            self._sign_keys[key.private] = handle
        return _bytes(await _SUBTLE.sign(_SIGN, handle, _u8(data)))

    async def verify(self, public: bytes, data: bytes, signature: bytes) -> bool:
        """False on any malformed input."""
        try:
            handle = self._verify_keys.get(public)
            if handle is None:
                handle = await _SUBTLE.importKey("raw", _u8(public), _ECDSA, True, _VERIFY_USE)
                self._verify_keys[public] = handle
            return bool(await _SUBTLE.verify(_SIGN, handle, _u8(signature), _u8(data)))
        except JsException:
            return False

    async def ecdh(self, key: KeyPair, public: bytes) -> bytes:
        """Shared x-coordinate via ``deriveBits`` (kept for the next box between the two)."""
        shared = self._shared.get((key.private, public))
        if shared is None:
            shared = await self._derive(key, public)
            _keep(self._shared, (key.private, public), shared)
        return shared

    async def _derive(self, key: KeyPair, public: bytes) -> bytes:
        try:
            private = await _SUBTLE.importKey(
                "jwk",
                _obj(jwk_private(key.private, key.public)),
                _ECDH,
                False,
                _obj(["deriveBits"]),
            )
            peer = await _SUBTLE.importKey("raw", _u8(public), _ECDH, True, _obj([]))
            bits = await _SUBTLE.deriveBits(_obj({"name": "ECDH", "public": peer}), private, 256)
        except JsException as exc:
            raise CryptoError(f"ECDH failed: {exc}") from exc
        return _bytes(bits)

    async def _aes_key(self, key: bytes, usage: str) -> Any:
        handle = self._aes_keys.get((key, usage))
        if handle is None:
            handle = await _SUBTLE.importKey("raw", _u8(key), "AES-GCM", False, _obj([usage]))
            _keep(self._aes_keys, (key, usage), handle)
        return handle

    async def aes_gcm_encrypt(self, key: bytes, nonce: bytes, data: bytes, aad: bytes) -> bytes:
        """WebCrypto output is already ciphertext ‖ tag."""
        params = _obj({"name": "AES-GCM", "iv": _u8(nonce), "additionalData": _u8(aad)})
        aes = await self._aes_key(key, "encrypt")
        return _bytes(await _SUBTLE.encrypt(params, aes, _u8(data)))

    async def aes_gcm_decrypt(self, key: bytes, nonce: bytes, data: bytes, aad: bytes) -> bytes:
        """A bad tag raises ``CryptoError``."""
        params = _obj({"name": "AES-GCM", "iv": _u8(nonce), "additionalData": _u8(aad)})
        try:
            aes = await self._aes_key(key, "decrypt")
            plain = await _SUBTLE.decrypt(params, aes, _u8(data))
        except JsException as exc:
            raise CryptoError("AES-GCM tag mismatch") from exc
        return _bytes(plain)


KEPT = 256  # shared secrets and AES keys kept per backend (a table has a few dozen pairs)


def _keep(store: dict[Any, Any], key: Any, value: Any) -> None:
    """Keep ``value``, forgetting the oldest once ``KEPT`` are held."""
    if len(store) >= KEPT:
        del store[next(iter(store))]
    store[key] = value
