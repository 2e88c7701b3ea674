"""The signalling hub: the rules for joining, leaving and relaying, over a room store.

The hub holds this process's sockets; the rooms themselves live in a ``Store`` (memory, or Redis
for a tier of several processes). A peer whose socket is on another process is reached through
``store.publish`` to that process's node; such messages arrive in ``on_bus``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from signaling.bots import BotLauncher, free_bot_name
from signaling.config import ServerConfig
from signaling.frames import (
    AddBot,
    Create,
    Frame,
    FrameError,
    Join,
    Leave,
    Ping,
    Signal,
    parse_frame,
)
from signaling.rooms import Peer, Role, Room, clean_name, normalize_code
from signaling.store import MemoryStore, Store, StoreUnavailable

log = logging.getLogger(__name__)


class Conn(Protocol):
    """What the hub needs from one client connection."""

    address: str
    room: str | None
    peer: Peer | None

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame for the client (never blocks)."""

    def kick(self, code: str, message: str) -> None:
        """Send an error frame and close the connection."""

    def close(self, code: int) -> None:
        """Close after the frames already queued."""


def error(code: str, message: str) -> dict[str, Any]:
    """An error frame."""
    return {"type": "error", "code": code, "message": message}


class Hub:
    """This process's sockets and the protocol's rules; rooms are in ``store``."""

    def __init__(self, config: ServerConfig, store: Store | None = None) -> None:
        self.config = config
        self.store: Store = store or MemoryStore(config)
        self.node = self.store.node
        self.conns: dict[tuple[str, str], Conn] = {}
        self.bots = BotLauncher(config.bot_server) if config.bots and config.bot_server else None
        self.store.set_local_rooms(lambda: {code for code, _ in self.conns})
        self.pending: list[tuple[str, list[str]]] = []  # departures the store missed
        self.retry: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Connect the store (a shared one starts delivering messages for this node)."""
        await self.store.start(self.on_bus, self.reap_node)

    async def close(self) -> None:
        """Stop the bots and release the store."""
        if self.bots is not None:
            self.bots.stop_all()
        if self.retry is not None:
            self.retry.cancel()
        await self.store.close()

    async def handle_text(self, conn: Conn, text: str) -> None:
        """Handle one text frame; refusals become error frames to the sender."""
        try:
            frame = parse_frame(text)
            await self.dispatch(conn, frame)
        except FrameError as exc:
            conn.send(error(exc.code, exc.message))
        except StoreUnavailable as exc:
            log.warning("store unavailable: %s", exc)
            conn.send(error("unavailable", "the server cannot reach its room store, try again"))

    async def dispatch(self, conn: Conn, frame: Frame) -> None:
        """Apply one valid frame."""
        if isinstance(frame, Ping):
            conn.send({"type": "pong"})
        elif isinstance(frame, Create):
            await self.create(conn, frame)
        elif isinstance(frame, Join):
            await self.join(conn, frame)
        elif isinstance(frame, Signal):
            await self.signal(conn, frame)
        elif isinstance(frame, AddBot):
            await self.add_bot(conn)
        elif isinstance(frame, Leave):
            if conn.room is None:
                raise FrameError("not-in-room", "leave before create or join")
            await self.leave(conn)

    async def _admit(self, conn: Conn, raw_name: str) -> str:
        """Common checks of create and join; returns the cleaned name."""
        if conn.room is not None:
            raise FrameError("already-in-room", "this connection is already in a room")
        if not await self.store.allow_join(conn.address):
            raise FrameError("join-rate-limit", "too many create/join attempts, wait a minute")
        name = clean_name(raw_name, self.config.max_name_chars)
        if name is None:
            limit = self.config.max_name_chars
            raise FrameError("bad-name", f"names are 1-{limit} characters, no control characters")
        return name

    def _check_capacity(self, room: Room, role: Role) -> None:
        """Refuse a seat when the role is full."""
        cap = self.config.max_players if role == "player" else self.config.max_spectators
        if room.count(role) >= cap:
            raise FrameError("room-full", f"this room has no free {role} seat")

    async def create(self, conn: Conn, frame: Create) -> None:
        """Open a new room with the sender as its host."""
        name = await self._admit(conn, frame.name)
        room, peer = await self.store.create(
            lambda r: r.add(name, frame.role, node=self.node), frame.room
        )
        await self._seated(conn, room, peer)

    async def join(self, conn: Conn, frame: Join) -> None:
        """Seat the sender in an existing room; a resume takes the old seat and order back."""
        name = await self._admit(conn, frame.name)
        grace = self.config.resume_grace

        def mutate(room: Room) -> tuple[Peer | None, str | None, Peer]:
            old = room.by_name(name)
            if old is not None:
                if frame.resume is None or frame.resume != old.resume:
                    raise FrameError("name-taken", "someone in this room already has this name")
                if old.role != frame.role:
                    self._check_capacity(room, frame.role)
                room.remove(old.id)
            else:
                self._check_capacity(room, frame.role)
            host_between = room.host()
            seat = room.reclaim(frame.resume, name, grace)
            peer = room.add(name, frame.role, seat.order if seat else None, node=self.node)
            return old, host_between, peer

        room, (old, host_between, peer) = await self.store.update(
            normalize_code(frame.room), mutate
        )
        if old is not None:
            await self._evict(room.code, old)
            left = {"type": "peer-left", "peer": old.id, "host": host_between}
            await self._broadcast(room, left, skip=peer.id)
        await self._seated(conn, room, peer)

    async def _seated(self, conn: Conn, room: Room, peer: Peer) -> None:
        """Bind the socket to its new seat, answer joined, tell the others."""
        conn.room, conn.peer = room.code, peer
        self.conns[(room.code, peer.id)] = conn
        joined = {
            "type": "joined",
            "room": room.code,
            "you": peer.id,
            "host": room.host(),
            "roster": room.roster(),
            "resume": peer.resume,
        }
        if self.config.turn is not None:  # fresh short-lived TURN credentials for this seat
            joined |= self.config.turn.joined_fields(peer.id)
        conn.send(joined)
        await self._broadcast(room, {"type": "peer-joined", "peer": peer.public()}, skip=peer.id)

    async def _evict(self, code: str, old: Peer) -> None:
        """Close the socket of a seat that was taken over, wherever it is."""
        message = "this seat was taken over by a newer connection"
        if old.node != self.node:
            await self.store.publish(old.node, {"kick": old.id, "room": code, "message": message})
            return
        old_conn = self.conns.pop((code, old.id), None)
        if old_conn is not None:
            old_conn.room, old_conn.peer = None, None
            old_conn.kick("replaced", message)

    async def add_bot(self, conn: Conn) -> None:
        """Host only: start a bot peer that joins this room as a player."""
        code, me = conn.room, conn.peer
        if code is None or me is None:
            raise FrameError("not-in-room", "add-bot before create or join")
        bots = self.bots

        def mutate(room: Room) -> str:
            if room.host() != me.id:
                raise FrameError("not-host", "only the room's host may add bots")
            if bots is None:
                raise FrameError("bots-disabled", "this server does not run bots")
            per_room = len(room.bots) >= self.config.max_bots_per_room
            if per_room or bots.count() >= self.config.max_bots:
                raise FrameError("too-many-bots", "no more bots can join")
            self._check_capacity(room, "player")
            taken = {p.name.casefold() for p in room.peers.values()}
            name = free_bot_name(taken | {n.casefold() for n in room.bots})
            if name is None:
                raise FrameError("too-many-bots", "no more bots can join")
            room.bots[name] = self.node
            return name

        room, name = await self.store.update(code, mutate)
        assert bots is not None
        bots.launch(code, name, seed=len(room.peers) + len(room.bots))
        conn.send({"type": "bot-added", "name": name})

    async def signal(self, conn: Conn, frame: Signal) -> None:
        """Relay opaque data to one peer of the same room."""
        code, me = conn.room, conn.peer
        if code is None or me is None:
            raise FrameError("not-in-room", "signal before create or join")
        relayed = {"type": "signal", "from": me.id, "data": frame.data}
        target = self.conns.get((code, frame.to))
        if target is not None:
            target.send(relayed)
            return
        room = await self.store.get(code)
        peer = room.peers.get(frame.to) if room is not None else None
        if peer is None or peer.node == self.node:
            raise FrameError("no-peer", "no such peer in this room")
        await self.store.publish(peer.node, {"deliver": [peer.id], "room": code, "frame": relayed})

    async def leave(self, conn: Conn) -> None:
        """Remove the connection's peer from its room (no-op when not in one)."""
        code, peer = conn.room, conn.peer
        conn.room, conn.peer = None, None
        if code is None or peer is None:
            return
        self.conns.pop((code, peer.id), None)
        try:
            await self._remove(code, [peer.id])
        except StoreUnavailable:
            self.pending.append((code, [peer.id]))  # once the store is back, it leaves
            if self.retry is None or self.retry.done():
                self.retry = asyncio.create_task(self._retry_departures())
            raise

    async def _retry_departures(self) -> None:
        """Take out of their rooms the peers that left while the store was unreachable."""
        while self.pending:
            await asyncio.sleep(1.0)
            code, ids = self.pending[0]
            try:
                await self._remove(code, ids)
            except StoreUnavailable:
                continue
            self.pending.pop(0)

    async def _remove(self, code: str, ids: list[str]) -> None:
        """Take peers out of a room, tell the rest, stop bots left on their own."""

        def mutate(room: Room) -> tuple[list[tuple[str, str | None]], set[str]]:
            gone = []
            for peer_id in ids:
                peer = room.remove(peer_id)
                if peer is not None:
                    room.bots.pop(peer.name, None)
                    gone.append((peer_id, room.host()))
            stop: set[str] = set()
            if not room.humans():  # bots do not keep a room alive on their own
                stop = set(room.bots.values())
                room.bots.clear()
            return gone, stop

        try:
            room, (gone, stop) = await self.store.update(code, mutate)
        except FrameError:
            return  # the room is already gone
        await self._stop_bots(code, stop)
        if not room.peers:
            log.info("room %s empty; kept %.0f s for a resume", code, self.config.resume_grace)
        for peer_id, host in gone:
            await self._broadcast(room, {"type": "peer-left", "peer": peer_id, "host": host})

    async def _stop_bots(self, code: str, nodes: set[str]) -> None:
        """Stop a room's bots on every node that started some."""
        for node in nodes:
            if node == self.node:
                if self.bots is not None:
                    self.bots.stop_room(code)
            else:
                await self.store.publish(node, {"stop-bots": code})

    async def _broadcast(self, room: Room, frame: dict[str, Any], skip: str | None = None) -> None:
        """Send a frame to every peer of a room except ``skip``, local or on other nodes."""
        remote: dict[str, list[str]] = {}
        for peer in sorted(room.peers.values(), key=lambda p: p.order):
            if peer.id == skip:
                continue
            if peer.node != self.node:
                remote.setdefault(peer.node, []).append(peer.id)
                continue
            target = self.conns.get((room.code, peer.id))
            if target is not None:
                target.send(frame)
        for node, ids in remote.items():
            await self.store.publish(node, {"deliver": ids, "room": room.code, "frame": frame})

    async def on_bus(self, message: dict[str, Any]) -> None:
        """A message from another node: deliver a frame, close a replaced seat, stop bots."""
        code = message.get("room", "")
        if "deliver" in message:
            for peer_id in message["deliver"]:
                target = self.conns.get((code, peer_id))
                if target is not None:
                    target.send(message["frame"])
        elif "kick" in message:
            old = self.conns.pop((code, message["kick"]), None)
            if old is not None:
                old.room, old.peer = None, None
                old.kick("replaced", message["message"])
        elif "stop-bots" in message and self.bots is not None:
            self.bots.stop_room(message["stop-bots"])

    async def reap_node(self, node: str, rooms: list[str]) -> None:
        """A node died: its peers leave their rooms (the others get ``peer-left``).

        When the node is this one (the shared store lost sight of us for a while), every socket
        is closed with 1012 (service restart) so that its page reconnects and resumes.
        """
        if node == self.node:
            held, self.conns = self.conns, {}
            for conn in held.values():
                conn.room, conn.peer = None, None
                conn.close(1012)
            by_room: dict[str, list[str]] = {}
            for code, peer_id in held:
                by_room.setdefault(code, []).append(peer_id)
            for code, ids in by_room.items():
                await self._remove(code, ids)  # no-op where another node already did it
            return
        for code in rooms:
            room = await self.store.get(code)
            if room is None:
                continue
            ids = [p.id for p in room.peers.values() if p.node == node]
            if ids:
                log.info("room %s: %d peers of dead node %s leave", code, len(ids), node)
                await self._remove(code, ids)
