"""The secret bundle a peer keeps in its own storage to rejoin after a reload."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from engine.fairness import curve, sharing
from engine.fairness.backends.base import CryptoBackend, KeyPair
from engine.fairness.deck import ShuffleSeed
from engine.fairness.randomness import HashChain


@dataclass
class SecretBundle:
    """Signing key, box key, the master secret and the openings of sealed choices."""

    sign: KeyPair
    dh: KeyPair
    master: bytes
    openings: dict[int, tuple[str, Any]] = field(default_factory=dict)

    @classmethod
    async def create(cls, backend: CryptoBackend) -> SecretBundle:
        """Fresh keys and a fresh master secret."""
        return cls(
            await backend.generate_keypair(),
            await backend.generate_keypair(),
            secrets.token_bytes(32),
        )

    def escrow_secret(self, room: str, game: str) -> int:
        """This game's escrow secret: the root of its shuffle and chain seeds, dealt to the other
        seats in verifiable shares (``fairness.sharing``)."""
        return sharing.escrow_secret(self.master, room, game)

    def sharing_coefficients(self, room: str, game: str, t: int) -> list[int]:
        """The non-constant coefficients of this game's sharing polynomial (``t − 1`` scalars)."""
        return [
            curve.scalar_from_bytes(
                b"magic-table/sharing/v1",
                self.master,
                room.encode(),
                game.encode(),
                str(k).encode(),
            )
            for k in range(1, t)
        ]

    def shuffle_seed(self, room: str, game: str) -> ShuffleSeed:
        """This game's shuffle secrets."""
        return sharing.seeds_of(self.escrow_secret(room, game))[0]

    def chain(self, room: str, game: str, length: int) -> HashChain:
        """This game's hash chain."""
        return HashChain(sharing.seeds_of(self.escrow_secret(room, game))[1], length)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for browser storage (keep it private: it holds every secret)."""
        return {
            "sign": [hex(self.sign.private), self.sign.public.hex()],
            "dh": [hex(self.dh.private), self.dh.public.hex()],
            "master": self.master.hex(),
            "openings": {str(k): [n, c] for k, (n, c) in self.openings.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SecretBundle:
        """Inverse of ``to_json``."""
        return cls(
            KeyPair(int(data["sign"][0], 16), bytes.fromhex(data["sign"][1])),
            KeyPair(int(data["dh"][0], 16), bytes.fromhex(data["dh"][1])),
            bytes.fromhex(data["master"]),
            {int(k): (v[0], v[1]) for k, v in data["openings"].items()},
        )
