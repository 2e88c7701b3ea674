"""Where rooms, resume seats and join limits live: this process's memory, or Redis.

A store changes a room only through ``create``/``update`` with a *mutation*: a function that
checks and changes a ``Room`` and returns a result, or raises ``FrameError`` to refuse. It must
not do I/O or have other side effects, because a shared store may run it more than once (an
optimistic transaction that lost a race is retried on fresh state).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol, TypeVar

from signaling.config import ServerConfig
from signaling.frames import FrameError
from signaling.limits import WindowLimiter
from signaling.rooms import Room, new_room_code

log = logging.getLogger(__name__)

T = TypeVar("T")
Mutation = Callable[[Room], T]
OnMessage = Callable[[dict[str, Any]], Awaitable[None]]
OnDeadNode = Callable[[str, list[str]], Awaitable[None]]


class StoreUnavailable(Exception):
    """The shared store cannot be reached; the request may be retried later."""


class Store(Protocol):
    """What the hub needs from the place rooms are kept."""

    node: str

    async def start(self, on_message: OnMessage, on_dead_node: OnDeadNode) -> None:
        """Begin receiving messages for this node (and notices of dead nodes)."""

    async def close(self) -> None:
        """Stop and release connections."""

    async def create(self, mutate: Mutation[T], code: str | None = None) -> tuple[Room, T]:
        """Make a room with a fresh code (or ``code``, ``room-taken`` if a room has it), apply
        ``mutate`` and save it (``too-many-rooms``)."""

    async def update(self, code: str, mutate: Mutation[T]) -> tuple[Room, T]:
        """Apply ``mutate`` to a room and save it (``no-room`` when there is none)."""

    async def get(self, code: str) -> Room | None:
        """The room as stored now, or None."""

    async def allow_join(self, address: str) -> bool:
        """Count a create/join attempt of ``address``; False when over the limit."""

    async def publish(self, node: str, message: dict[str, Any]) -> None:
        """Deliver a message to another node's ``on_message``."""

    def set_local_rooms(self, codes: Callable[[], Iterable[str]]) -> None:
        """Tell the store which rooms have sockets on this node (to keep them alive)."""


class MemoryStore:
    """Rooms in this process's memory: the default, one process only."""

    node = "local"

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.rooms: dict[str, Room] = {}
        self.join_limiter = WindowLimiter(config.join_limit, config.join_window)

    async def start(self, on_message: OnMessage, on_dead_node: OnDeadNode) -> None:
        """Nothing to receive: every peer is local."""

    async def close(self) -> None:
        """Nothing to release."""

    def _purge(self) -> None:
        """Forget rooms that have stood empty past the resume grace period."""
        for code in [c for c, r in self.rooms.items() if r.expired(self.config.resume_grace)]:
            del self.rooms[code]
            log.info("room %s closed", code)

    async def create(self, mutate: Mutation[T], code: str | None = None) -> tuple[Room, T]:
        """See ``Store.create``."""
        self._purge()
        if len(self.rooms) >= self.config.max_rooms:
            raise FrameError("too-many-rooms", "the server has too many rooms, try later")
        if code is not None and code in self.rooms:
            raise FrameError("room-taken", "a room with this code exists: join it")
        while code is None or code in self.rooms:
            code = new_room_code()
        room = Room(code)
        result = mutate(room)
        self.rooms[code] = room
        log.info("room %s created", code)
        return room, result

    async def update(self, code: str, mutate: Mutation[T]) -> tuple[Room, T]:
        """See ``Store.update``."""
        self._purge()
        stored = self.rooms.get(code)
        if stored is None:
            raise FrameError("no-room", "no room with this code")
        room = Room.load(stored.dump())  # a refused mutation leaves the stored room untouched
        result = mutate(room)
        self.rooms[code] = room
        return room, result

    async def get(self, code: str) -> Room | None:
        """See ``Store.get``."""
        return self.rooms.get(code)

    async def allow_join(self, address: str) -> bool:
        """See ``Store.allow_join``."""
        return self.join_limiter.hit(address)

    async def publish(self, node: str, message: dict[str, Any]) -> None:
        """Never needed: there is no other node."""
        log.warning("message for unknown node %s dropped", node)

    def set_local_rooms(self, codes: Callable[[], Iterable[str]]) -> None:
        """Rooms in memory need no keeping alive."""
