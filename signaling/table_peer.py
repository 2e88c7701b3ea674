"""A Python peer's seat at the table: a ``TableSession`` wired to a ``MeshPeer``.

The Python peer plays with the ``cryptography`` backend (whatever the start-up self-test picks) and
a bot policy; it sees exactly what a browser in its seat would: its own hand, the public log.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

from engine.fairness.backends import select_backend
from engine.games import rules_for
from engine.protocol.players import FirstLegal, Player, RandomBot, Reflexes, Smart
from engine.protocol.session import TableSession
from engine.protocol.storage import MemoryStorage
from signaling.mesh import MeshPeer

TICK_SECONDS = 0.25
# In real time a bot looks at each new state this long before it acts, as a person would.
REACTION_SECONDS = 0.8


def make_player(kind: str, seed: int = 0, reaction: float = REACTION_SECONDS) -> Player:
    """A bot policy by name: ``smart``, ``random`` or ``first`` (the first legal option); a
    ``smart`` bot takes ``reaction`` seconds to answer a real-time state."""
    if kind == "smart":
        return Reflexes(Smart(seed), reaction, time.monotonic)
    if kind == "random":
        return RandomBot(seed)
    if kind == "first":
        return FirstLegal()
    raise ValueError(f"unknown bot kind {kind!r}")


class TablePeer:
    """Runs one table session over a mesh peer and reports its progress as lines."""

    def __init__(self, mesh: MeshPeer, player: Player, report: Callable[[str], None]) -> None:
        self.mesh = mesh
        self.player = player
        self.report = report
        self.session: TableSession | None = None
        self._stage = ""
        self._ticker: asyncio.Task[None] | None = None

    async def start(self) -> TableSession:
        """Create the session once the mesh has joined a room; hook it to the mesh's events."""
        assert self.mesh.room is not None
        session = TableSession(
            room=self.mesh.room,
            name=self.mesh.name,
            role=self.mesh.role,
            send=lambda link, obj: self.mesh.send(link, obj),
            storage=MemoryStorage(),
            backend=await select_backend(),
            rules_for=rules_for,
            player=self.player,
            on_update=self._on_update,
        )
        await session.setup()
        # A bot is always ready, with a hero of its own.
        session.set_profile(f"h_{8 - len(self.mesh.peers) % 8}", True)
        self.session = session
        self.mesh.on_open = session.channel_open
        self.mesh.on_close = session.link_closed
        for link in self.mesh.ready_peers():
            session.channel_open(link)
        self._ticker = asyncio.ensure_future(self._tick())
        return session

    def on_message(self, link: str, message: dict[str, Any]) -> bool:
        """Hand table messages to the session; False for anything else (chat...)."""
        return self.session is not None and self.session.take(link, message)

    def _on_update(self) -> None:
        peer = self.session.peer if self.session else None
        if peer is None:
            return
        stage = peer.table.stage
        if stage != self._stage:
            self._stage = stage
            self.report(f"TABLE {stage}")
            if stage in ("done", "halted"):
                self.report("RESULT " + json.dumps(peer.table.result, sort_keys=True))
                self.report("DIGEST " + peer.table.digest())

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            if self.session is not None:
                await self.session.tick()

    async def close(self) -> None:
        """Stop the timers and the session."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        if self.session is not None:
            self.session.close()
