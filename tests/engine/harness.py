"""In-process tables for protocol tests: peers on one bus with a fake clock."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.model import Rules
from engine.fairness.backends.base import CryptoBackend
from engine.fairness.backends.native import NativeBackend
from engine.games.toy import ToyRules
from engine.protocol.bundle import SecretBundle
from engine.protocol.peer import Peer
from engine.protocol.players import Player, RandomBot
from engine.protocol.table import Member
from engine.protocol.transport import InProcessBus


@dataclass
class FakeClock:
    """Time that moves only when a test says so."""

    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class SkewedClock:
    """One peer's own clock: the table's fake time plus a fixed offset (clocks never agree)."""

    base: FakeClock
    offset: float

    def __call__(self) -> float:
        return self.base.now + self.offset


class DishonestSequencer(Peer):
    """A host that drops the posts ``drop`` picks (it never sequences them, it may time out
    their authors), and may invent entries of its own through ``sequence_now``."""

    def drop(self, envelope: Any) -> bool:
        """Posts to censor; none by default."""
        return False

    async def _sequence(self, envelope: Any, sender: str) -> None:
        if isinstance(envelope, dict) and self.drop(envelope):
            return
        await super()._sequence(envelope, sender)


@dataclass
class Harness:
    """A bus, a clock and the peers of one table."""

    bus: InProcessBus
    clock: FakeClock
    peers: list[Peer]
    bundles: list[SecretBundle]
    roster: list[Member]
    backend: CryptoBackend
    extra: dict[str, Any] = field(default_factory=dict)

    async def settle(self) -> None:
        """Run until nobody has anything left to say."""
        await self.bus.settle()

    async def advance(self, seconds: float, steps: int = 1) -> None:
        """Move the clock and let every peer's timers fire."""
        for _ in range(steps):
            self.clock.now += seconds / steps
            for peer in self.peers:
                await peer.tick()
            await self.settle()

    async def reload(self, index: int, seed: int = 99, via: str = "p0") -> Peer:
        """Peer ``index`` reloads its page: a new ``Peer`` from its stored bundle, which asks
        ``via`` for the log (the old object is dropped)."""
        old = self.peers[index]
        fresh = Peer(
            peer_id=old.id,
            roster=self.roster,
            room=old.room,
            game=old.game,
            rules=old.rules,
            backend=self.backend,
            transport=self.bus.endpoint(old.id),
            bundle=SecretBundle.from_json(old.bundle.to_json()),
            player=RandomBot(seed),
            clock=self.clock,
        )
        self.peers[index] = fresh
        await fresh.rejoin(via)
        await self.settle()
        return fresh

    def player_peers(self) -> list[Peer]:
        """Peers that hold a seat."""
        return [p for p in self.peers if p.seat is not None]


async def make_table(
    seats: int,
    *,
    spectators: int = 0,
    backend: CryptoBackend | None = None,
    peer_class: dict[int, type[Peer]] | None = None,
    players: dict[int, Player] | None = None,
    room: str = "room-1",
    game: str = "game-1",
    rules: Rules[Any] | None = None,
    bundles: list[SecretBundle] | None = None,
    skew: dict[int, float] | None = None,
    host_timeout: float = 10.0,
) -> Harness:
    """Peers for ``seats`` players (+ spectators); peer 0 is the host. Not started yet.

    ``bundles`` replays a table with the same secrets (the same shuffles and dice); ``skew``
    gives peers clocks of their own, off the table's time by that many seconds."""
    backend = backend or NativeBackend()
    bus = InProcessBus()
    clock = FakeClock()
    if bundles is None:
        bundles = [await SecretBundle.create(backend) for _ in range(seats + spectators)]
    roster = [
        Member(f"p{i}", i if i < seats else None, b.sign.public, b.dh.public)
        for i, b in enumerate(bundles)
    ]
    peers = []
    for i, bundle in enumerate(bundles):
        cls = (peer_class or {}).get(i, Peer)
        peers.append(
            cls(
                peer_id=f"p{i}",
                roster=roster,
                room=room,
                game=game,
                rules=rules or ToyRules(),
                backend=backend,
                transport=bus.endpoint(f"p{i}"),
                bundle=bundle,
                player=(players or {}).get(i, RandomBot(i)),
                clock=SkewedClock(clock, (skew or {}).get(i, 0.0)),
                host_timeout=host_timeout,
            )
        )
    return Harness(bus, clock, peers, bundles, roster, backend)


async def play(h: Harness, seats: int, timer: int = 30) -> None:
    """Start the toy game and run it to quiet."""
    await h.peers[0].start({"seats": seats}, timer=timer)
    await h.settle()


def waiting_on(peer: Peer) -> dict[int, str]:
    """What the table waits for, less the seats whose proof ``peer`` holds already (a preimage
    or reveal keys given but not logged until every owing seat's is in)."""
    return {
        seat: owed
        for seat, owed in peer.table.obligations().items()
        if peer._held_proof(seat, owed) is None
    }
