"""End-to-end encrypted payloads between two peers: ECDH → HKDF-SHA256 → AES-256-GCM.

A box is ``nonce ‖ ciphertext ‖ tag`` in hex. The AES key is bound to the room, the game and both
peers' public keys; the associated data binds sender and receiver, so a relay (or the log, which
carries the boxes) learns only who talks to whom.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from engine.fairness.backends.base import CryptoBackend, CryptoError, KeyPair
from engine.fairness.encoding import join_fields


def hkdf_sha256(ikm: bytes, salt: bytes, info: bytes, length: int = 32) -> bytes:
    """RFC 5869 HKDF with SHA-256."""
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    out = b""
    block = b""
    counter = 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        out += block
        counter += 1
    return out[:length]


async def _box_key(
    backend: CryptoBackend, mine: KeyPair, theirs: bytes, room: str, game: str
) -> bytes:
    shared = await backend.ecdh(mine, theirs)
    low, high = sorted([mine.public, theirs])
    return hkdf_sha256(shared, join_fields("magic-table/box/v1", room, game), low + high)


async def seal_box(
    backend: CryptoBackend,
    mine: KeyPair,
    theirs: bytes,
    room: str,
    game: str,
    aad: str,
    plaintext: bytes,
) -> str:
    """Encrypt ``plaintext`` for the holder of ``theirs``."""
    key = await _box_key(backend, mine, theirs, room, game)
    nonce = secrets.token_bytes(12)
    return (nonce + await backend.aes_gcm_encrypt(key, nonce, plaintext, aad.encode())).hex()


async def open_box(
    backend: CryptoBackend,
    mine: KeyPair,
    theirs: bytes,
    room: str,
    game: str,
    aad: str,
    box: str,
) -> bytes:
    """Decrypt a box from the holder of ``theirs``; ``CryptoError`` if it was tampered with."""
    try:
        raw = bytes.fromhex(box)
    except ValueError as exc:
        raise CryptoError("box is not hex") from exc
    if len(raw) < 28:
        raise CryptoError("box too short")
    key = await _box_key(backend, mine, theirs, room, game)
    return await backend.aes_gcm_decrypt(key, raw[:12], raw[12:], aad.encode())
