"""The room as a player's page sees it: roster, seats, connection states, chat and notices.

Pure Python with no browser imports, so it is tested in CPython; ``web.ui.app`` feeds it the
signalling and data-channel events and renders it.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import asdict, dataclass, field
from typing import Any

MAX_CHAT_TEXT = 500
MAX_CHAT_LINES = 300


@dataclass
class Peer:
    """Another page (or Python peer) in the room."""

    id: str
    name: str
    role: str
    order: int
    state: str = "connecting"
    channel: bool = False


@dataclass(frozen=True)
class ChatLine:
    """One line of the chat pane: a message from someone, or a notice from the page itself."""

    id: str
    name: str
    text: str
    ts: int
    notice: bool = False
    mine: bool = False


class BadMessage(ValueError):
    """A data-channel message that does not follow the protocol; it is dropped, nothing changes."""


@dataclass
class Room:
    """Everything the page knows about the room it sits in."""

    code: str
    you: str
    name: str
    host: str
    role: str = "player"
    order: int = 0
    peers: dict[str, Peer] = field(default_factory=dict)
    chat: list[ChatLine] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)

    @classmethod
    def from_joined(cls, frame: dict[str, Any], name: str) -> Room:
        """The room described by the server's ``joined`` frame."""
        room = cls(code=frame["room"], you=frame["you"], name=name, host=frame["host"])
        for info in frame["roster"]:
            if info["id"] == room.you:
                room.role, room.order = info["role"], info["order"]
            else:
                room.add_peer(info)
        return room

    def add_peer(self, info: dict[str, Any]) -> Peer:
        """Add (or refresh) a peer from a roster entry."""
        peer = Peer(id=info["id"], name=info["name"], role=info["role"], order=info["order"])
        self.peers[peer.id] = peer
        return peer

    def remove_peer(self, peer_id: str, host: str | None) -> Peer | None:
        """Forget a peer that left; the server names the new host."""
        if host:
            self.host = host
        return self.peers.pop(peer_id, None)

    def set_state(self, peer_id: str, state: str, channel: bool) -> tuple[Peer | None, bool]:
        """Record a connection state; the flag says whether the peer has just dropped."""
        peer = self.peers.get(peer_id)
        if peer is None:
            return None, False
        was_up = peer.state == "connected"
        peer.state, peer.channel = state, channel
        return peer, was_up and state in ("failed", "disconnected", "closed")

    def seats(self) -> list[tuple[int, str, str]]:
        """Players (this page included) in seat order as (seat, peer id, name)."""
        everyone = [(p.order, p.id, p.name, p.role) for p in self.peers.values()]
        everyone.append((self.order, self.you, self.name, self.role))
        players = [entry for entry in sorted(everyone) if entry[3] == "player"]
        return [(seat, peer_id, name) for seat, (_, peer_id, name, _) in enumerate(players)]

    def make_chat(self, text: str, now_ms: int, at: float | None = None) -> tuple[str, ChatLine]:
        """A chat message of ours: the wire text to broadcast and the line to show.

        ``at`` (a high-resolution send time) lets receivers measure latency for benchmarks.
        """
        text = clean_text(text)
        if not text:
            raise BadMessage("empty message")
        line = ChatLine(secrets.token_hex(8), self.name, text, now_ms, mine=True)
        self.append(line)
        wire: dict[str, Any] = {"t": "chat", "id": line.id, "from": self.you, "name": self.name}
        wire |= {"text": text, "ts": now_ms}
        if at is not None:
            wire["at"] = at
        return json.dumps(wire, ensure_ascii=False), line

    def receive_chat(self, peer_id: str, message: dict[str, Any]) -> ChatLine | None:
        """A chat message from a peer, checked; ``None`` for a duplicate."""
        peer = self.peers.get(peer_id)
        msg_id, text, ts = message.get("id"), message.get("text"), message.get("ts")
        if not isinstance(msg_id, str) or not isinstance(text, str) or not isinstance(ts, int):
            raise BadMessage("chat message without id, text or ts")
        if len(text) > MAX_CHAT_TEXT or len(msg_id) > 64:
            raise BadMessage("chat message too long")
        if msg_id in self.seen:
            return None
        name = peer.name if peer else str(message.get("name", "?"))[:32]
        line = ChatLine(msg_id, name, clean_text(text), ts)
        self.append(line)
        return line

    def notice(self, text: str, now_ms: int) -> ChatLine:
        """A line the page itself adds to the chat (joins, departures, errors)."""
        line = ChatLine(secrets.token_hex(8), "", text, now_ms, notice=True)
        self.append(line)
        return line

    def append(self, line: ChatLine) -> None:
        """Keep a bounded chat history."""
        self.seen.add(line.id)
        self.chat.append(line)
        del self.chat[:-MAX_CHAT_LINES]

    def chat_json(self) -> str:
        """The chat history as JSON, kept in the tab's storage across a reload."""
        return json.dumps([asdict(line) for line in self.chat], ensure_ascii=False)

    def restore_chat(self, stored: str | None) -> None:
        """Bring back the chat history saved before a reload; a damaged copy is ignored."""
        try:
            lines = [ChatLine(**item) for item in json.loads(stored or "[]")]
        except (TypeError, ValueError):
            return
        for line in lines:
            if line.id not in self.seen:
                self.append(line)


def parse_message(text: str) -> dict[str, Any]:
    """A data-channel message as a dict with a string ``t``, or ``BadMessage``."""
    try:
        message = json.loads(text)
    except ValueError as error:
        raise BadMessage("not JSON") from error
    if not isinstance(message, dict) or not isinstance(message.get("t"), str):
        raise BadMessage("not a message object")
    return message


def clean_text(text: str) -> str:
    """Chat text without control characters, trimmed and bounded."""
    kept = "".join(ch for ch in text if ch == "\n" or ch >= " ")
    return kept.strip()[:MAX_CHAT_TEXT]
