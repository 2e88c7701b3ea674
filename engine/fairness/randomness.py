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
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.fairness.encoding import Field, join_fields

T = TypeVar("T")
CHAIN_TAG = b"magic-table/chain/v1"
MARK_STRIDE = 64  # links between two kept values of a chain: a preimage costs at most this many
WALK_PART = 512  # links walked between two pauses of ``HashChain.walk``
KEPT_CHAINS = 16  # chains whose kept values stay in memory (a page's own, the departed seats')
_kept: dict[tuple[bytes, int], tuple[bytes, ...]] = {}


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
        """``h^(N-event)(seed)``: the value revealed for event ``event`` (0 is the tip).

        The chain is walked once and every ``MARK_STRIDE``-th value kept (shared by every
        ``HashChain`` of the same seed and length), so a preimage costs at most that many links."""
        if not 0 <= event <= self.length:
            raise ValueError("hash chain exhausted")
        marks = _kept.get((self.seed, self.length))
        if marks is None:
            marks = self._keep(_walked(self.seed, self.length, []))
        position = self.length - event
        value = marks[position // MARK_STRIDE]
        for _ in range(position % MARK_STRIDE):
            value = chain_step(value)
        return value

    async def walk(self, pause: Callable[[], Awaitable[None]]) -> None:
        """Walk the chain and keep its values, awaiting ``pause`` between parts of
        ``WALK_PART`` links (a page's task ends there): the walk then costs no preimage anything."""
        if (self.seed, self.length) in _kept:
            return
        marks: list[bytes] = []
        for done in range(0, self.length, WALK_PART):
            _walked(self.seed, min(self.length, done + WALK_PART), marks)
            await pause()
        self._keep(marks or [self.seed])

    def _keep(self, marks: list[bytes]) -> tuple[bytes, ...]:
        if len(_kept) >= KEPT_CHAINS:
            del _kept[next(iter(_kept))]
        kept = _kept[(self.seed, self.length)] = tuple(marks)
        return kept


def _walked(seed: bytes, until: int, marks: list[bytes]) -> list[bytes]:
    """Extend ``marks`` (``h^(k·MARK_STRIDE)(seed)`` so far) up to position ``until``."""
    if not marks:
        marks.append(seed)
    position = (len(marks) - 1) * MARK_STRIDE
    value = marks[-1]
    while position < until:
        value = chain_step(value)
        position += 1
        if position % MARK_STRIDE == 0:
            marks.append(value)
    return marks


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
