"""The ``Transport`` a table ``Peer`` talks through in a room: its table ids mapped onto the
room mesh's current links, each message inside a ``{"t": "game", "g": <game id>}`` frame (the
receiving session lets a message of another game go: one still in flight from the last game)."""

from __future__ import annotations

from typing import Any, Protocol

from engine.protocol.transport import Receiver


class Links(Protocol):
    """What the transport needs of its session: this peer's table id, the current link of each
    table member, and a way to send a frame on a link."""

    tid: str
    links: dict[str, str]

    def table_game(self) -> str:
        """The id of the game the session's table plays now."""
        ...

    def send(self, link: str, message: dict[str, Any]) -> None:
        """Send one frame on one mesh link."""
        ...


class MeshTransport:
    """The ``Transport`` a ``Peer`` talks through: tids mapped onto the current mesh links."""

    def __init__(self, session: Links) -> None:
        self.session = session
        self.receiver: Receiver | None = None

    def send(self, to: str, message: str) -> None:
        """Send to one table member, if it is connected now (else the log catches it up later)."""
        link = self.session.links.get(to)
        if link is not None:
            self.session.send(link, self._frame(message))

    def broadcast(self, message: str) -> None:
        """Send to every connected table member."""
        frame = self._frame(message)
        for tid, link in self.session.links.items():
            if tid != self.session.tid:
                self.session.send(link, frame)

    def _frame(self, message: str) -> dict[str, Any]:
        return {"t": "game", "g": self.session.table_game(), "m": message}

    def on_receive(self, callback: Receiver) -> None:
        """Register the peer's receiver."""
        self.receiver = callback
