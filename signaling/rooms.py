"""Rooms and peers of the signalling server: pure state, no I/O.

Times are wall-clock seconds (``time.time()``), so that a room stored in Redis means the same to
every process of a shared tier.
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["player", "spectator"]
ROLES: tuple[Role, ...] = ("player", "spectator")

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6


def new_room_code() -> str:
    """A random room code: 6 symbols from 31 unambiguous ones (about 30 bits)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    """Upper-case a typed code and drop spaces and dashes."""
    return code.strip().upper().replace("-", "").replace(" ", "")


def new_peer_id() -> str:
    """A random url-safe peer id (11 characters)."""
    return secrets.token_urlsafe(8)


def new_resume_token() -> str:
    """A random secret that lets a reloading page take its old seat back."""
    return secrets.token_urlsafe(16)


def _strip_spaces(raw: str) -> str:
    """Drop space separators (Unicode category Zs) at both ends; tabs and newlines stay."""
    start, end = 0, len(raw)
    while start < end and unicodedata.category(raw[start]) == "Zs":
        start += 1
    while end > start and unicodedata.category(raw[end - 1]) == "Zs":
        end -= 1
    return raw[start:end]


def clean_name(raw: str, max_chars: int) -> str | None:
    """The name without surrounding spaces, or None when it is empty, too long or has control
    characters (a tab or newline at either end included: it is not silently trimmed)."""
    name = _strip_spaces(raw)
    if not 1 <= len(name) <= max_chars:
        return None
    if any(unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") for ch in name):
        return None
    return name


@dataclass
class Peer:
    """One seat in a room, as the other peers see it (plus its resume secret)."""

    id: str
    name: str
    role: Role
    order: int
    resume: str = field(default_factory=new_resume_token, repr=False)
    node: str = "local"  # the server process that holds this peer's socket

    def public(self) -> dict[str, Any]:
        """The PEER object of the wire protocol."""
        return {"id": self.id, "name": self.name, "role": self.role, "order": self.order}

    def dump(self) -> dict[str, Any]:
        """Everything, for storage."""
        return {**self.public(), "resume": self.resume, "node": self.node}

    @staticmethod
    def load(obj: dict[str, Any]) -> Peer:
        """The inverse of ``dump``."""
        return Peer(obj["id"], obj["name"], obj["role"], obj["order"], obj["resume"], obj["node"])


@dataclass
class Room:
    """A room: its peers by id, the join counter, and recently departed seats."""

    code: str
    peers: dict[str, Peer] = field(default_factory=dict)
    counter: int = 0
    departed: dict[str, tuple[Peer, float]] = field(default_factory=dict)
    emptied_at: float | None = None
    bots: dict[str, str] = field(default_factory=dict)  # bot name -> node that started it

    def dump(self) -> dict[str, Any]:
        """A JSON-able snapshot (resume secrets included: for the server's store only)."""
        return {
            "code": self.code,
            "peers": [p.dump() for p in self.peers.values()],
            "counter": self.counter,
            "departed": [[p.dump(), t] for p, t in self.departed.values()],
            "emptied_at": self.emptied_at,
            "bots": self.bots,
        }

    @staticmethod
    def load(obj: dict[str, Any]) -> Room:
        """The inverse of ``dump``."""
        peers = [Peer.load(p) for p in obj["peers"]]
        departed = [(Peer.load(p), float(t)) for p, t in obj["departed"]]
        return Room(
            code=obj["code"],
            peers={p.id: p for p in peers},
            counter=obj["counter"],
            departed={p.resume: (p, t) for p, t in departed},
            emptied_at=obj["emptied_at"],
            bots=dict(obj["bots"]),
        )

    def add(self, name: str, role: Role, order: int | None = None, node: str = "local") -> Peer:
        """Seat a peer: with the next join order, or with a reclaimed one."""
        peer_id = new_peer_id()
        while peer_id in self.peers:
            peer_id = new_peer_id()
        if order is None:
            self.counter += 1
            order = self.counter
        peer = Peer(id=peer_id, name=name, role=role, order=order, node=node)
        self.peers[peer_id] = peer
        self.emptied_at = None
        return peer

    def remove(self, peer_id: str) -> Peer | None:
        """Drop a peer, remembering its seat for a resume; returns it, or None."""
        peer = self.peers.pop(peer_id, None)
        if peer is not None:
            now = time.time()
            self.departed[peer.resume] = (peer, now)
            if not self.peers:
                self.emptied_at = now
        return peer

    def reclaim(self, resume: str | None, name: str, grace: float) -> Peer | None:
        """The seat a reloading page left within ``grace`` seconds, if token and name match."""
        now = time.time()
        self.departed = {k: v for k, v in self.departed.items() if now - v[1] <= grace}
        found = self.departed.get(resume or "")
        if found is None or found[0].name.casefold() != name.casefold():
            return None
        del self.departed[found[0].resume]
        return found[0]

    def expired(self, grace: float) -> bool:
        """True for a room that has stood empty longer than ``grace`` seconds."""
        return self.emptied_at is not None and time.time() - self.emptied_at > grace

    def roster(self) -> list[dict[str, Any]]:
        """Every peer's public object, in join order."""
        return [p.public() for p in sorted(self.peers.values(), key=lambda p: p.order)]

    def host(self) -> str | None:
        """The id of the earliest-joined peer still here."""
        if not self.peers:
            return None
        return min(self.peers.values(), key=lambda p: p.order).id

    def by_name(self, name: str) -> Peer | None:
        """The peer with this name (case-insensitive), if any."""
        key = name.casefold()
        for peer in self.peers.values():
            if peer.name.casefold() == key:
                return peer
        return None

    def humans(self) -> bool:
        """True while someone other than a bot started for this room is here."""
        return any(p.name not in self.bots for p in self.peers.values())

    def count(self, role: Role) -> int:
        """How many peers hold this role."""
        return sum(1 for p in self.peers.values() if p.role == role)
