"""Joint randomness from per-peer hash chains.

Each seat commits to the tip ``h^N(seed)`` of a hash chain. For random event k (1-based) every
seat reveals ``h^(N-k)(seed)``, which everyone checks hashes to the previous value. The outcome is
``SHA-256(event ‖ preimages in seat order)`` reduced to ``range(n)`` without modulo bias: the
256-bit value is rejected when it falls in the incomplete top band, and the digest re-hashed with a
counter until it does not.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.fairness.encoding import Field, join_fields

T = TypeVar("T")
CHAIN_TAG = b"magic-table/chain/v1"


def chain_step(value: bytes) -> bytes:
    """One link of the chain: ``h(x) = SHA-256(tag ‖ x)``."""
    return hashlib.sha256(CHAIN_TAG + value).digest()


@dataclass
class HashChain:
    """A seat's own chain: ``length`` events' worth of preimages from a 32-byte seed."""

    seed: bytes
    length: int = 512

    def tip(self) -> bytes:
        """``h^N(seed)``, the public commitment."""
        return self.preimage(0)

    def preimage(self, event: int) -> bytes:
        """``h^(N-event)(seed)``: the value revealed for event ``event`` (0 is the tip)."""
        if not 0 <= event <= self.length:
            raise ValueError("hash chain exhausted")
        value = self.seed
        for _ in range(self.length - event):
            value = chain_step(value)
        return value


def verify_link(previous: bytes, revealed: bytes) -> bool:
    """True when ``revealed`` is the preimage of ``previous``."""
    return len(revealed) == 32 and hmac.compare_digest(chain_step(revealed), previous)


def outcome_digest(event: Sequence[Field], preimages: Sequence[bytes]) -> bytes:
    """``SHA-256(event ‖ preimages in seat order)``, all length-prefixed."""
    return hashlib.sha256(join_fields(*event, *preimages)).digest()


def reduce_uniform(digest: bytes, n: int) -> int:
    """A uniform integer in ``range(n)`` from a digest, by rejection and re-hashing."""
    if n <= 0:
        raise ValueError("range must be positive")
    space = 1 << 256
    limit = space - space % n
    counter = 0
    value = int.from_bytes(digest, "big")
    while value >= limit:
        counter += 1
        value = int.from_bytes(hashlib.sha256(digest + counter.to_bytes(4, "big")).digest(), "big")
    return value % n


def joint_value(event: Sequence[Field], preimages: Sequence[bytes], n: int) -> int:
    """The outcome of one random event in ``range(n)``."""
    return reduce_uniform(outcome_digest(event, preimages), n)


def pick(event: Sequence[Field], preimages: Sequence[bytes], items: Sequence[T]) -> T:
    """A uniform pick from ``items`` (a blind public draw from what remains)."""
    return items[joint_value(event, preimages, len(items))]
