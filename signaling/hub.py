"""The signalling hub: rooms, membership and relaying, independent of the transport."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from signaling.bots import BotLauncher
from signaling.config import ServerConfig
from signaling.frames import AddBot, Create, FrameError, Join, Leave, Ping, Signal, parse_frame
from signaling.limits import WindowLimiter
from signaling.rooms import Peer, Role, Room, clean_name, new_room_code, normalize_code

log = logging.getLogger(__name__)


class Conn(Protocol):
    """What the hub needs from one client connection."""

    address: str
    room: Room | None
    peer: Peer | None

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame for the client (never blocks)."""

    def kick(self, code: str, message: str) -> None:
        """Send an error frame and close the connection."""


def error(code: str, message: str) -> dict[str, Any]:
    """An error frame."""
    return {"type": "error", "code": code, "message": message}


class Hub:
    """All rooms of one server and the rules for joining, leaving and relaying."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.rooms: dict[str, Room] = {}
        self.conns: dict[tuple[str, str], Conn] = {}
        self.join_limiter = WindowLimiter(config.join_limit, config.join_window)
        self.bots = BotLauncher(config.bot_server) if config.bots and config.bot_server else None

    def handle_text(self, conn: Conn, text: str) -> None:
        """Handle one text frame; refusals become error frames to the sender."""
        try:
            frame = parse_frame(text)
            self.dispatch(conn, frame)
        except FrameError as exc:
            conn.send(error(exc.code, exc.message))

    def dispatch(self, conn: Conn, frame: Create | Join | Signal | Leave | Ping | AddBot) -> None:
        """Apply one valid frame."""
        if isinstance(frame, Ping):
            conn.send({"type": "pong"})
        elif isinstance(frame, Create):
            self.create(conn, frame)
        elif isinstance(frame, Join):
            self.join(conn, frame)
        elif isinstance(frame, Signal):
            self.signal(conn, frame)
        elif isinstance(frame, AddBot):
            self.add_bot(conn)
        else:
            if conn.room is None:
                raise FrameError("not-in-room", "leave before create or join")
            self.leave(conn)

    def _admit(self, conn: Conn, raw_name: str) -> str:
        """Common checks of create and join; returns the cleaned name."""
        if conn.room is not None:
            raise FrameError("already-in-room", "this connection is already in a room")
        if not self.join_limiter.hit(conn.address):
            raise FrameError("join-rate-limit", "too many create/join attempts, wait a minute")
        name = clean_name(raw_name, self.config.max_name_chars)
        if name is None:
            limit = self.config.max_name_chars
            raise FrameError("bad-name", f"names are 1-{limit} characters, no control characters")
        return name

    def create(self, conn: Conn, frame: Create) -> None:
        """Open a new room with the sender as its host."""
        name = self._admit(conn, frame.name)
        self._purge()
        if len(self.rooms) >= self.config.max_rooms:
            raise FrameError("too-many-rooms", "the server has too many rooms, try later")
        code = new_room_code()
        while code in self.rooms:
            code = new_room_code()
        room = Room(code)
        self.rooms[code] = room
        log.info("room %s created", code)
        self._seat(conn, room, name, frame.role)

    def join(self, conn: Conn, frame: Join) -> None:
        """Seat the sender in an existing room; a resume takes the old seat and order back."""
        name = self._admit(conn, frame.name)
        self._purge()
        room = self.rooms.get(normalize_code(frame.room))
        if room is None:
            raise FrameError("no-room", "no room with this code")
        old = room.by_name(name)
        if old is not None:
            if frame.resume is None or frame.resume != old.resume:
                raise FrameError("name-taken", "someone in this room already has this name")
            if old.role != frame.role:
                self._check_capacity(room, frame.role)
            old_conn = self.conns.get((room.code, old.id))
            if old_conn is not None:
                self._drop(old_conn)
                old_conn.kick("replaced", "this seat was taken over by a newer connection")
        else:
            self._check_capacity(room, frame.role)
        seat = room.reclaim(frame.resume, name, self.config.resume_grace)
        self._seat(conn, room, name, frame.role, seat.order if seat else None)

    def add_bot(self, conn: Conn) -> None:
        """Host only: start a bot peer that joins this room as a player."""
        room, peer = conn.room, conn.peer
        if room is None or peer is None:
            raise FrameError("not-in-room", "add-bot before create or join")
        if room.host() != peer.id:
            raise FrameError("not-host", "only the room's host may add bots")
        if self.bots is None:
            raise FrameError("bots-disabled", "this server does not run bots")
        per_room = self.bots.count(room.code) >= self.config.max_bots_per_room
        if per_room or self.bots.count() >= self.config.max_bots:
            raise FrameError("too-many-bots", "no more bots can join")
        self._check_capacity(room, "player")
        name = self.bots.launch(room.code, {p.name.casefold() for p in room.peers.values()})
        conn.send({"type": "bot-added", "name": name})

    def _humans_left(self, room: Room) -> bool:
        """True while someone other than our bots is in ``room``."""
        bots = self.bots
        return any(bots is None or not bots.is_bot(room.code, p.name) for p in room.peers.values())

    def _purge(self) -> None:
        """Forget rooms that have stood empty past the resume grace period."""
        for code in [c for c, r in self.rooms.items() if r.expired(self.config.resume_grace)]:
            if self.bots is not None:
                self.bots.stop_room(code)
            del self.rooms[code]
            log.info("room %s closed", code)

    def _check_capacity(self, room: Room, role: Role) -> None:
        """Refuse a seat when the role is full."""
        cap = self.config.max_players if role == "player" else self.config.max_spectators
        if room.count(role) >= cap:
            raise FrameError("room-full", f"this room has no free {role} seat")

    def _seat(
        self, conn: Conn, room: Room, name: str, role: Role, order: int | None = None
    ) -> None:
        """Add the peer, answer joined, tell the others."""
        peer = room.add(name, role, order)
        conn.room, conn.peer = room, peer
        self.conns[(room.code, peer.id)] = conn
        conn.send(
            {
                "type": "joined",
                "room": room.code,
                "you": peer.id,
                "host": room.host(),
                "roster": room.roster(),
                "resume": peer.resume,
            }
        )
        self._broadcast(room, {"type": "peer-joined", "peer": peer.public()}, skip=peer.id)

    def signal(self, conn: Conn, frame: Signal) -> None:
        """Relay opaque data to one peer of the same room."""
        if conn.room is None or conn.peer is None:
            raise FrameError("not-in-room", "signal before create or join")
        target = self.conns.get((conn.room.code, frame.to))
        if target is None:
            raise FrameError("no-peer", "no such peer in this room")
        target.send({"type": "signal", "from": conn.peer.id, "data": frame.data})

    def leave(self, conn: Conn) -> None:
        """Remove the connection's peer from its room (no-op when not in one)."""
        self._drop(conn)

    def _drop(self, conn: Conn) -> None:
        """Take the peer out of its room, tell the rest, delete an empty room."""
        room, peer = conn.room, conn.peer
        conn.room, conn.peer = None, None
        if room is None or peer is None:
            return
        room.remove(peer.id)
        self.conns.pop((room.code, peer.id), None)
        if self.bots is not None and not self._humans_left(room):
            self.bots.stop_room(room.code)  # bots do not keep a room alive on their own
        if not room.peers:
            log.info("room %s empty; kept %.0f s for a resume", room.code, self.config.resume_grace)
            return
        self._broadcast(room, {"type": "peer-left", "peer": peer.id, "host": room.host()})

    def _broadcast(self, room: Room, frame: dict[str, Any], skip: str | None = None) -> None:
        """Send a frame to every peer of a room except ``skip``."""
        for peer_id in list(room.peers):
            if peer_id == skip:
                continue
            target = self.conns.get((room.code, peer_id))
            if target is not None:
                target.send(frame)
