"""Pure-Python backend: the reference implementation and the last-resort fallback."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from engine.fairness import curve
from engine.fairness.backends import aes_gcm
from engine.fairness.backends.base import CryptoBackend, CryptoError, KeyPair
from engine.fairness.backends.encoding import join_signature, split_signature


class PureBackend(CryptoBackend):
    """Everything in Python big integers; about a millisecond per scalar multiplication."""

    name = "pure"

    async def mult_many(self, pairs: Sequence[tuple[int, int]]) -> list[int]:
        """``x(k·P)`` for each pair."""
        try:
            return [curve.mult_x(k, x) for k, x in pairs]
        except curve.CurveError as exc:
            raise CryptoError(str(exc)) from exc

    async def generate_keypair(self) -> KeyPair:
        """A fresh random key pair."""
        d = secrets.randbelow(curve.N - 1) + 1
        point = curve.multiply(d, (curve.GX, curve.GY))
        assert point is not None
        return KeyPair(d, curve.encode_point(point))

    async def sign(self, key: KeyPair, data: bytes) -> bytes:
        """ECDSA with a nonce mixed from the key, the message and fresh randomness."""
        z = int.from_bytes(hashlib.sha256(data).digest(), "big")
        while True:
            seed = key.private.to_bytes(32, "big") + secrets.token_bytes(32)
            k = int.from_bytes(hmac.new(seed, data, hashlib.sha256).digest(), "big")
            if not 0 < k < curve.N:
                continue
            point = curve.multiply(k, (curve.GX, curve.GY))
            assert point is not None
            r = point[0] % curve.N
            s = pow(k, -1, curve.N) * (z + r * key.private) % curve.N
            if r and s:
                return join_signature(r, s)

    async def verify(self, public: bytes, data: bytes, signature: bytes) -> bool:
        """Standard ECDSA verification."""
        try:
            q = curve.decode_point(public)
            r, s = split_signature(signature)
        except (curve.CurveError, ValueError):
            return False
        if not (0 < r < curve.N and 0 < s < curve.N):
            return False
        z = int.from_bytes(hashlib.sha256(data).digest(), "big")
        w = pow(s, -1, curve.N)
        point = curve.add(
            curve.multiply(z * w % curve.N, (curve.GX, curve.GY)),
            curve.multiply(r * w % curve.N, q),
        )
        return point is not None and point[0] % curve.N == r

    async def ecdh(self, key: KeyPair, public: bytes) -> bytes:
        """Shared x-coordinate."""
        try:
            point = curve.multiply(key.private, curve.decode_point(public))
        except curve.CurveError as exc:
            raise CryptoError(str(exc)) from exc
        assert point is not None
        return point[0].to_bytes(32, "big")

    async def aes_gcm_encrypt(self, key: bytes, nonce: bytes, data: bytes, aad: bytes) -> bytes:
        """AES-256-GCM in Python."""
        return aes_gcm.encrypt(key, nonce, data, aad)

    async def aes_gcm_decrypt(self, key: bytes, nonce: bytes, data: bytes, aad: bytes) -> bytes:
        """AES-256-GCM in Python; a bad tag raises ``CryptoError``."""
        plain = aes_gcm.decrypt(key, nonce, data, aad)
        if plain is None:
            raise CryptoError("AES-GCM tag mismatch")
        return plain
