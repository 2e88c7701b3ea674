"""Byte encodings shared by the backends: PKCS#8 for a bare scalar, JWK fields, r‖s signatures."""

from __future__ import annotations

import base64

from engine.fairness.curve import N

# DER prefix of a PKCS#8 P-256 private key without the optional public key:
# SEQUENCE { INTEGER 0, SEQUENCE { id-ecPublicKey, prime256v1 },
#            OCTET STRING { SEQUENCE { INTEGER 1, OCTET STRING (32 bytes) } } }
_PKCS8_PREFIX = bytes.fromhex(
    "3041020100301306072a8648ce3d020106082a8648ce3d030107042730250201010420"
)


def pkcs8_from_scalar(k: int) -> bytes:
    """PKCS#8 DER of the P-256 private key ``k`` (no public key inside)."""
    if not 0 < k < N:
        raise ValueError("scalar out of range")
    return _PKCS8_PREFIX + k.to_bytes(32, "big")


def b64url(data: bytes) -> str:
    """Unpadded base64url, as JWK wants it."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def from_b64url(text: str) -> bytes:
    """Decode unpadded base64url."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def jwk_private(key_private: int, public: bytes) -> dict[str, object]:
    """A private JWK for P-256 from a scalar and its uncompressed public point."""
    return {
        "kty": "EC",
        "crv": "P-256",
        "d": b64url(key_private.to_bytes(32, "big")),
        "x": b64url(public[1:33]),
        "y": b64url(public[33:65]),
        "ext": True,
    }


def split_signature(signature: bytes) -> tuple[int, int]:
    """``(r, s)`` from a 64-byte ``r ‖ s`` signature."""
    if len(signature) != 64:
        raise ValueError("signature must be 64 bytes")
    return int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")


def join_signature(r: int, s: int) -> bytes:
    """64-byte ``r ‖ s``."""
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")
