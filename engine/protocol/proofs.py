"""Contributions that prove themselves, held until the log carries them.

A seat's preimage for a random event hashes to the chain value it revealed last, and its key for
a slot being revealed matches the commitment it published when it shuffled: anyone can check
either against the table, so neither needs its seat's signature or a log entry of its own. Each
seat broadcasts such a *proof* (wire ``{"k": "proof", "t": "preimage" | "keys", "seat", …}``) to
every peer; the host logs all the owing seats' proofs of one event in one entry of its own
(``preimages`` or ``reveal``), and every other peer holds what it has seen, as it holds posts
(``watch``), so a host that sits on complete proofs, or times out a seat whose proof it was sent,
is seen. A proof is held only once checked (``peer_proofs``), so the store never holds a forgery.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from engine.protocol.watch import due_to_forward

PROOF_KINDS = ("preimage", "keys")
MAX_PROOFS = 64

# (kind, seat, marker): the marker is the event number of a preimage, or the revealed slots
# with their epochs for keys.
ProofKey = tuple[str, int, Any]


@dataclass
class HeldProof:
    """One checked proof, as it came on the wire, and since when this peer holds it."""

    message: dict[str, Any]
    since: float
    forwarded: float | None = None
    own: bool = False


@dataclass
class HeldProofs:
    """Checked proofs not yet logged, oldest first, bounded."""

    items: OrderedDict[ProofKey, HeldProof] = field(default_factory=OrderedDict)

    def add(self, key: ProofKey, message: dict[str, Any], now: float, *, own: bool = False) -> None:
        """Keep a checked proof (one already held under ``key`` stays as it was)."""
        if key in self.items:
            return
        if len(self.items) >= MAX_PROOFS:
            self.items.popitem(last=False)
        self.items[key] = HeldProof(message, now, now if own else None, own)

    def get(self, key: ProofKey) -> HeldProof | None:
        """The proof held under ``key``."""
        return self.items.get(key)

    def drop(self, kind: str, stale: Any) -> None:
        """Forget the proofs of ``kind`` whose marker ``stale(marker)`` calls logged or past."""
        for key in [k for k in self.items if k[0] == kind and stale(k[2])]:
            del self.items[key]

    def to_forward(self, now: float) -> list[dict[str, Any]]:
        """Proofs held for ``RELAY_DELAY`` and not forwarded yet (marked forwarded; this seat's
        own went to the host when given); old ones go."""
        return [held.message for held in due_to_forward(self.items, now)]

    def own(self) -> list[dict[str, Any]]:
        """This seat's own proofs still held."""
        return [held.message for held in self.items.values() if held.own]

    def restart(self, now: float) -> None:
        """Count every hold from ``now`` (a new host has just taken over)."""
        for held in self.items.values():
            held.since = now
            held.forwarded = now if held.own else None

    def resend(self) -> None:
        """Forward every proof to the host again, this seat's own too (the host has reloaded
        and lost what it held); how long each has been held still counts."""
        for held in self.items.values():
            held.forwarded = None
