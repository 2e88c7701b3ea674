"""CPython backend on the ``cryptography`` package (OpenSSL): masking through ECDH exchange."""

from __future__ import annotations

from collections.abc import Sequence

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import (
    decode_dss_signature,
    encode_dss_signature,
)
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from engine.fairness import curve
from engine.fairness.backends.base import CryptoBackend, CryptoError, KeyPair
from engine.fairness.backends.encoding import join_signature, split_signature

_CURVE = ec.SECP256R1()


def _public_key(x: int) -> ec.EllipticCurvePublicKey:
    if not 0 <= x < curve.P:
        raise CryptoError("x-coordinate out of range")
    try:
        return ec.EllipticCurvePublicKey.from_encoded_point(_CURVE, curve.compressed_x(x))
    except ValueError as exc:
        raise CryptoError("not a P-256 x-coordinate") from exc


class NativeBackend(CryptoBackend):
    """``x(k·P)`` is the ECDH shared secret of private key ``k`` and public point ``P``."""

    name = "cryptography"

    async def mult_many(self, pairs: Sequence[tuple[int, int]]) -> list[int]:
        """Each pair through one ECDH exchange; private keys reused within the batch."""
        keys: dict[int, ec.EllipticCurvePrivateKey] = {}
        out = []
        for k, x in pairs:
            if not 0 < k < curve.N:
                raise CryptoError("scalar out of range")
            private = keys.get(k)
            if private is None:
                private = keys[k] = ec.derive_private_key(k, _CURVE)
            shared = private.exchange(ec.ECDH(), _public_key(x))
            out.append(int.from_bytes(shared, "big"))
        return out

    async def generate_keypair(self) -> KeyPair:
        """A fresh OpenSSL key pair as plain values."""
        private = ec.generate_private_key(_CURVE)
        public = private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return KeyPair(private.private_numbers().private_value, public)

    async def sign(self, key: KeyPair, data: bytes) -> bytes:
        """DER signature converted to ``r ‖ s``."""
        private = ec.derive_private_key(key.private, _CURVE)
        r, s = decode_dss_signature(private.sign(data, ec.ECDSA(hashes.SHA256())))
        return join_signature(r, s)

    async def verify(self, public: bytes, data: bytes, signature: bytes) -> bool:
        """False on any malformed input."""
        try:
            r, s = split_signature(signature)
            key = ec.EllipticCurvePublicKey.from_encoded_point(_CURVE, public)
            key.verify(encode_dss_signature(r, s), data, ec.ECDSA(hashes.SHA256()))
        except (InvalidSignature, ValueError):
            return False
        return True

    async def ecdh(self, key: KeyPair, public: bytes) -> bytes:
        """Shared x-coordinate."""
        try:
            peer = ec.EllipticCurvePublicKey.from_encoded_point(_CURVE, public)
        except ValueError as exc:
            raise CryptoError("bad public key") from exc
        return ec.derive_private_key(key.private, _CURVE).exchange(ec.ECDH(), peer)

    async def aes_gcm_encrypt(self, key: bytes, nonce: bytes, data: bytes, aad: bytes) -> bytes:
        """OpenSSL AES-256-GCM."""
        return AESGCM(key).encrypt(nonce, data, aad)

    async def aes_gcm_decrypt(self, key: bytes, nonce: bytes, data: bytes, aad: bytes) -> bytes:
        """OpenSSL AES-256-GCM; a bad tag raises ``CryptoError``."""
        try:
            return AESGCM(key).decrypt(nonce, data, aad)
        except (InvalidTag, ValueError) as exc:
            raise CryptoError("AES-GCM tag mismatch") from exc
