"""Shared helpers of the dishonest-peer tests: who was blamed, whether honest peers agree."""

from __future__ import annotations

from typing import Any

from engine.core.model import canonical_json
from engine.protocol.envelope import entry_hash, make_envelope, sign_entry
from engine.protocol.table import Table
from engine.protocol.transport import BusEndpoint
from tests.engine.harness import Harness, make_table, play


def blamed(h: Harness, peer_id: str) -> bool:
    """The first honest peer recorded an error naming ``peer_id``."""
    honest = [p for p in h.peers if p.id != peer_id]
    return all(any(e.peer == peer_id for e in p.errors) for p in honest[:1])


def digests(h: Harness, skip: set[str] | None = None) -> set[str]:
    """Table digests of the peers (less ``skip``): one value when they agree."""
    return {p.table.digest() for p in h.peers if p.id not in (skip or set())}


async def started(seats: int = 3, **kwargs: Any) -> Harness:
    """A toy table of ``seats`` players, started and run until quiet."""
    h = await make_table(seats, **kwargs)
    await play(h, seats)
    return h


async def signed(h: Harness, seat: int, body: dict[str, Any], author: str | None = None) -> Any:
    """An envelope signed by seat ``seat``'s key at its head (``author``: the peer it claims)."""
    peer = h.peers[seat]
    return await make_envelope(
        h.backend, peer.bundle.sign, "room-1", "game-1", author or peer.id, peer.table.head, body
    )


async def host_signature(h: Harness, seat: int, seq: int, digest: str) -> str:
    """Seat ``seat``'s key's signature of entry ``seq`` with hash ``digest``, as a host signs."""
    peer = h.peers[seat]
    return await sign_entry(h.backend, peer.bundle.sign, "room-1", "game-1", seq, digest)


async def next_entry(h: Harness, seat: int, envelope: Any, table: Table) -> dict[str, Any]:
    """``envelope`` as the next entry of ``table``, sequenced and signed by seat ``seat`` as its
    host (the seat's own checks skipped)."""
    entry = {"seq": len(table.log), "prev": table.head, "msg": envelope, "host": h.peers[seat].id}
    entry["hsig"] = await host_signature(h, seat, entry["seq"], entry_hash(entry))
    return entry


def wire(message: dict[str, Any]) -> str:
    """A wire message as peers send it."""
    return canonical_json(message).decode()


class Never:
    """A player that never chooses (its table waits on it)."""

    async def choose(self, *args: Any) -> Any:
        return None


def stranger(h: Harness, name: str = "intruder") -> BusEndpoint:
    """A bus endpoint of somebody not at the table (what it is sent goes nowhere)."""
    endpoint = h.bus.endpoints.get(name)
    if endpoint is None:
        endpoint = h.bus.endpoint(name)

        async def sink(sender: str, message: str) -> None:
            return None

        endpoint.on_receive(sink)
    return endpoint
