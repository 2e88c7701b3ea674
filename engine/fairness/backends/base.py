"""The one async interface every crypto backend implements, bit-identical across backends."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass


class CryptoError(ValueError):
    """A cryptographic check failed (bad point, bad ciphertext, bad key...)."""


@dataclass(frozen=True)
class KeyPair:
    """A P-256 key pair: the private scalar and the uncompressed SEC1 public point (65 bytes).

    Plain values, so a browser can keep them in its storage and any backend can use them.
    """

    private: int
    public: bytes


class CryptoBackend(ABC):
    """P-256 masking, ECDSA, ECDH and AES-GCM behind one async interface."""

    name: str = ""

    @abstractmethod
    async def mult_many(self, pairs: Sequence[tuple[int, int]]) -> list[int]:
        """``x(k·P)`` for each ``(k, x)``; raises ``CryptoError`` on an invalid x or scalar."""

    @abstractmethod
    async def generate_keypair(self) -> KeyPair:
        """A fresh random key pair."""

    @abstractmethod
    async def sign(self, key: KeyPair, data: bytes) -> bytes:
        """ECDSA P-256 / SHA-256 signature as ``r ‖ s`` (64 bytes, the WebCrypto format)."""

    @abstractmethod
    async def verify(self, public: bytes, data: bytes, signature: bytes) -> bool:
        """True when ``signature`` is a valid ``r ‖ s`` signature of ``data`` by ``public``."""

    @abstractmethod
    async def ecdh(self, key: KeyPair, public: bytes) -> bytes:
        """The raw ECDH shared secret (the 32-byte x-coordinate)."""

    @abstractmethod
    async def aes_gcm_encrypt(self, key: bytes, nonce: bytes, data: bytes, aad: bytes) -> bytes:
        """AES-256-GCM: ciphertext followed by the 16-byte tag."""

    @abstractmethod
    async def aes_gcm_decrypt(self, key: bytes, nonce: bytes, data: bytes, aad: bytes) -> bytes:
        """Inverse of ``aes_gcm_encrypt``; raises ``CryptoError`` if the tag does not match."""
