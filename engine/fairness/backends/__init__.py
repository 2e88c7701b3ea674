"""Crypto backends and the start-up self-test that picks the fastest correct one.

``available_backends()`` lists what this runtime can load (WebCrypto only under Pyodide,
``cryptography`` only where it is installed, pure Python always). ``select_backend()`` runs the
reference vectors on each, fastest kind first, and keeps the first that agrees bit for bit.
"""

from __future__ import annotations

from engine.fairness import curve
from engine.fairness.backends.base import CryptoBackend, CryptoError, KeyPair
from engine.fairness.backends.pure import PureBackend

__all__ = [
    "CryptoBackend",
    "CryptoError",
    "KeyPair",
    "available_backends",
    "select_backend",
    "self_test",
]

# Reference vector: fixed scalars and card points; answers come from the pure-Python curve code.
_REF_SCALARS = [1, 2, 0xDEADBEEF, curve.N - 1, curve.scalar_from_bytes(b"self-test")]
_REF_XS = [curve.GX, curve.hash_to_x(b"self-test", b"card")]
_REF_KEY = KeyPair(
    0x1F2E3D4C5B6A79881F2E3D4C5B6A79881F2E3D4C5B6A79881F2E3D4C5B6A7988,
    curve.encode_point(
        curve.multiply(
            0x1F2E3D4C5B6A79881F2E3D4C5B6A79881F2E3D4C5B6A79881F2E3D4C5B6A7988,
            (curve.GX, curve.GY),
        )
        or (0, 0)
    ),
)


def available_backends() -> list[CryptoBackend]:
    """Every backend this runtime can import, fastest kind first."""
    found: list[CryptoBackend] = []
    try:
        from engine.fairness.backends.webcrypto import WebCryptoBackend

        found.append(WebCryptoBackend())
    except ImportError:
        pass
    try:
        from engine.fairness.backends.native import NativeBackend

        found.append(NativeBackend())
    except ImportError:
        pass
    found.append(PureBackend())
    return found


async def self_test(backend: CryptoBackend) -> bool:
    """True when ``backend`` reproduces the reference answers of the pure-Python code."""
    pairs = [(k, x) for k in _REF_SCALARS for x in _REF_XS]
    try:
        got = await backend.mult_many(pairs)
        if got != [curve.mult_x(k, x) for k, x in pairs]:
            return False
        try:
            await backend.mult_many([(3, 2)])  # x = 2 is not on P-256
            return False
        except CryptoError:
            pass
        other = await backend.generate_keypair()
        if not curve.is_on_curve(curve.decode_point(other.public)):
            return False
        shared = await backend.ecdh(_REF_KEY, other.public)
        point = curve.multiply(_REF_KEY.private, curve.decode_point(other.public))
        if point is None or shared != point[0].to_bytes(32, "big"):
            return False
        signature = await backend.sign(_REF_KEY, b"self-test")
        if not await PureBackend().verify(_REF_KEY.public, b"self-test", signature):
            return False
        if not await backend.verify(_REF_KEY.public, b"self-test", signature):
            return False
        if await backend.verify(_REF_KEY.public, b"self-tesT", signature):
            return False
        sealed = await backend.aes_gcm_encrypt(b"k" * 32, b"n" * 12, b"payload", b"aad")
        if sealed != bytes.fromhex(_AES_REF):
            return False
        return await backend.aes_gcm_decrypt(b"k" * 32, b"n" * 12, sealed, b"aad") == b"payload"
    except (CryptoError, ValueError):
        return False


# AES-256-GCM(key=b"k"*32, nonce=b"n"*12, b"payload", aad=b"aad"), computed once with OpenSSL.
_AES_REF = "e85a9edc7ed5e1b6bd1e737a4e64cdb5c3a13c59f207b1"


async def select_backend(prefer: str | None = None) -> CryptoBackend:
    """The first backend, fastest kind first, that passes ``self_test`` (or the one named
    ``prefer``). The order is fixed rather than timed: a timing race on a handful of operations
    is noise on a busy machine, while at the sizes a game needs WebCrypto and ``cryptography``
    are many times faster than pure Python (docs/benchmarks.md)."""
    for backend in available_backends():
        if prefer is not None and backend.name != prefer:
            continue
        if await self_test(backend):
            return backend
    raise CryptoError(f"no crypto backend passed the self-test (wanted {prefer or 'any'})")
