"""Rooms in Redis, shared by every signalling process started with the same ``--redis`` URL.

Keys (all under ``sig:``):

- ``room:{CODE}``: the room as JSON (``Room.dump``), with an expiry: ``resume_grace`` once empty,
  ``resume_grace + node_ttl`` while occupied, renewed by the heartbeat of each process that holds
  one of its sockets. Changed only in WATCH/MULTI transactions, retried when another process won.
- ``rooms``: sorted set of room codes scored by their expiry time, for ``--max-rooms``.
- ``join:{ADDRESS}``: sorted set of recent create/join attempts, a sliding window kept by a Lua
  script on Redis's own clock, so the limit holds across processes.
- ``node:{ID}``: a process's heartbeat (expires after ``node_ttl``); ``nodes``: the set of ids;
  ``node:{ID}:rooms``: rooms where that process seated someone. A process that finds another's
  heartbeat gone takes ``reap:{ID}`` and removes the dead process's peers from those rooms.

Each process subscribes to the pub/sub channel ``sig:node:{ID}``; frames for a peer on another
process are published there (see ``Hub.on_bus``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError, WatchError

from signaling.config import ServerConfig
from signaling.frames import FrameError
from signaling.rooms import Room, new_room_code
from signaling.store import Mutation, OnDeadNode, OnMessage, StoreUnavailable, T

log = logging.getLogger(__name__)

PREFIX = "sig:"
RETRIES = 50
POOL_SIZE = 64  # connections to Redis per process

# KEYS[1] the address's window; ARGV: window (ms), limit, a unique member. 1 = allowed.
SLIDING_WINDOW = """
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 1
"""


def new_node_id() -> str:
    """A random id for this process."""
    return secrets.token_hex(6)


class RedisStore:
    """The ``Store`` of a shared tier: see the module docstring."""

    def __init__(self, config: ServerConfig, url: str, node: str | None = None) -> None:
        self.config = config
        self.url = url
        self.node = node or new_node_id()
        try:
            # A burst (hundreds of sockets closing at once) waits for a free connection instead
            # of failing with "Too many connections", as the default pool of 100 would.
            pool = aioredis.BlockingConnectionPool.from_url(
                url,
                max_connections=POOL_SIZE,
                timeout=5,
                decode_responses=True,
                socket_timeout=5,
                socket_connect_timeout=5,
            )
            self.client: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        except ValueError as exc:
            raise ValueError(f"--redis {url!r} is not a Redis URL: {exc}") from exc
        self.window = self.client.register_script(SLIDING_WINDOW)
        self.tasks: list[asyncio.Task[None]] = []
        self.local_rooms: Callable[[], Iterable[str]] = set
        self.on_message: OnMessage | None = None
        self.on_dead_node: OnDeadNode | None = None
        self.healthy = True
        self.beats = 0
        self.suspects: dict[str, float] = {}  # node -> when its heartbeat was first missing

    # keys -----------------------------------------------------------------------------------
    @staticmethod
    def room_key(code: str) -> str:
        """Where a room's JSON is."""
        return f"{PREFIX}room:{code}"

    def channel(self, node: str) -> str:
        """The pub/sub channel of a node."""
        return f"{PREFIX}node:{node}"

    def _ttl_ms(self, room: Room) -> int:
        grace = self.config.resume_grace + (self.config.node_ttl if room.peers else 0)
        return max(1, int(grace * 1000))

    # lifecycle ------------------------------------------------------------------------------
    async def start(self, on_message: OnMessage, on_dead_node: OnDeadNode) -> None:
        """Check Redis, subscribe to this node's channel, then start the heartbeat."""
        self.on_message, self.on_dead_node = on_message, on_dead_node
        try:
            await self.client.ping()
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(f"cannot reach Redis at {self.url}: {exc}") from exc
        ready = asyncio.Event()
        self.tasks.append(asyncio.create_task(self._listen(ready)))
        await asyncio.wait_for(ready.wait(), 10)
        await self._beat()
        self.tasks.append(asyncio.create_task(self._heartbeat()))
        log.info("node %s joined the tier at %s", self.node, self.url)

    async def close(self) -> None:
        """Stop the tasks; leave the heartbeat to expire only if Redis is gone."""
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(RedisError, OSError):
            await self.client.delete(f"{PREFIX}node:{self.node}")  # others reap us at once
        await self.client.aclose(close_connection_pool=True)

    def set_local_rooms(self, codes: Callable[[], Iterable[str]]) -> None:
        """Rooms whose expiry this node's heartbeat renews."""
        self.local_rooms = codes

    def _went(self, ok: bool, exc: Exception | None = None) -> None:
        """Log once when Redis goes away and once when it is back."""
        if ok and not self.healthy:
            log.warning("Redis at %s is reachable again", self.url)
        elif not ok and self.healthy:
            log.error("Redis at %s is unreachable: %s", self.url, exc)
        self.healthy = ok

    async def _listen(self, ready: asyncio.Event) -> None:
        """Receive this node's messages; resubscribe after Redis comes back."""
        delay = 0.1
        while True:
            pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel(self.node))
                ready.set()
                delay = 0.1
                while True:
                    msg = await pubsub.get_message(timeout=1.0)
                    if msg is None or msg.get("type") != "message":
                        continue
                    assert self.on_message is not None
                    try:
                        await self.on_message(json.loads(msg["data"]))
                    except Exception:
                        log.exception("bad message on %s", self.channel(self.node))
            except (RedisError, OSError) as exc:
                self._went(False, exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def _heartbeat(self) -> None:
        """Every third of ``node_ttl``: prove we live, keep our rooms, reap dead nodes."""
        while True:
            await asyncio.sleep(self.config.node_ttl / 3)
            try:
                await self._beat()
                await self._reap()
                self._went(True)
            except (RedisError, OSError) as exc:
                self._went(False, exc)
            except Exception:
                log.exception("heartbeat failed")

    async def _beat(self) -> None:
        ttl = int(self.config.node_ttl * 1000)
        now = time.time()
        async with self.client.pipeline(transaction=False) as pipe:
            pipe.set(f"{PREFIX}node:{self.node}", "1", px=ttl, get=True)
            pipe.sadd(f"{PREFIX}nodes", self.node)
            pipe.pexpire(f"{PREFIX}node:{self.node}:rooms", ttl * 20)
            keep = int((self.config.resume_grace + self.config.node_ttl) * 1000)
            for code in self.local_rooms():
                pipe.pexpire(self.room_key(code), keep)
                pipe.zadd(f"{PREFIX}rooms", {code: now + keep / 1000}, xx=True)
            results = await pipe.execute()
        self.beats += 1
        if results[0] is None and self.beats > 1:
            # Redis lost sight of us for longer than node_ttl: others may have reaped our peers
            log.error("this node's heartbeat had expired; its sockets must reconnect")
            assert self.on_dead_node is not None
            await self.on_dead_node(self.node, [])

    async def _reap(self) -> None:
        members: set[str] = await self.client.smembers(f"{PREFIX}nodes")  # type: ignore[assignment]
        nodes = [n for n in members if n != self.node]
        if not nodes:
            return
        alive = await self.client.exists(*[f"{PREFIX}node:{n}" for n in nodes])
        if alive == len(nodes):
            return
        now = time.monotonic()
        for node in nodes:
            if await self.client.exists(f"{PREFIX}node:{node}"):
                self.suspects.pop(node, None)
                continue
            # missing once may be Redis's restart, not the node: wait one more node_ttl
            if now - self.suspects.setdefault(node, now) < self.config.node_ttl:
                continue
            self.suspects.pop(node, None)
            if not await self.client.set(f"{PREFIX}reap:{node}", self.node, nx=True, px=30_000):
                continue  # another process is on it
            key = f"{PREFIX}node:{node}:rooms"
            held: set[str] = await self.client.smembers(key)  # type: ignore[assignment]
            rooms = sorted(held)
            log.warning("node %s is gone; its peers leave %d rooms", node, len(rooms))
            assert self.on_dead_node is not None
            await self.on_dead_node(node, rooms)
            await self.client.srem(f"{PREFIX}nodes", node)
            await self.client.delete(f"{PREFIX}node:{node}:rooms")

    # rooms ----------------------------------------------------------------------------------
    async def _guard(self, work: Any) -> Any:
        try:
            result = await work
        except (RedisError, OSError) as exc:
            self._went(False, exc)
            raise StoreUnavailable(str(exc)) from exc
        self._went(True)
        return result

    async def create(self, mutate: Mutation[T], code: str | None = None) -> tuple[Room, T]:
        """See ``Store.create``."""
        result: tuple[Room, T] = await self._guard(self._create(mutate, code))
        return result

    async def _create(self, mutate: Mutation[T], wanted: str | None) -> tuple[Room, T]:
        rooms_key = f"{PREFIX}rooms"
        for _ in range(RETRIES):
            code = wanted or new_room_code()
            key = self.room_key(code)
            async with self.client.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(key, rooms_key)
                    now = time.time()
                    live = await pipe.zcount(rooms_key, now, "+inf")
                    if live >= self.config.max_rooms:
                        raise FrameError(
                            "too-many-rooms", "the server has too many rooms, try later"
                        )
                    if await pipe.exists(key):
                        if wanted:
                            raise FrameError("room-taken", "a room with this code exists: join it")
                        continue
                    room = Room(code)
                    result = mutate(room)
                    pipe.multi()
                    pipe.zremrangebyscore(rooms_key, "-inf", now)
                    self._save(pipe, room, now)
                    await pipe.execute()
                except WatchError:
                    continue
            log.info("room %s created", code)
            return room, result
        raise StoreUnavailable("too much contention creating a room")

    async def update(self, code: str, mutate: Mutation[T]) -> tuple[Room, T]:
        """See ``Store.update``."""
        result: tuple[Room, T] = await self._guard(self._update(code, mutate))
        return result

    async def _update(self, code: str, mutate: Mutation[T]) -> tuple[Room, T]:
        key = self.room_key(code)
        for _ in range(RETRIES):
            async with self.client.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(key)
                    raw = await pipe.get(key)
                    if raw is None:
                        raise FrameError("no-room", "no room with this code")
                    room = Room.load(json.loads(raw))
                    result = mutate(room)
                    pipe.multi()
                    self._save(pipe, room, time.time())
                    await pipe.execute()
                except WatchError:
                    continue
            return room, result
        raise StoreUnavailable(f"too much contention on room {code}")

    def _save(self, pipe: Any, room: Room, now: float) -> None:
        """Queue the writes that store ``room`` (inside MULTI)."""
        ttl = self._ttl_ms(room)
        pipe.set(self.room_key(room.code), json.dumps(room.dump()), px=ttl)
        pipe.zadd(f"{PREFIX}rooms", {room.code: now + ttl / 1000})
        if any(p.node == self.node for p in room.peers.values()):
            pipe.sadd(f"{PREFIX}node:{self.node}:rooms", room.code)

    async def get(self, code: str) -> Room | None:
        """See ``Store.get``."""
        raw = await self._guard(self.client.get(self.room_key(code)))
        return None if raw is None else Room.load(json.loads(raw))

    async def allow_join(self, address: str) -> bool:
        """See ``Store.allow_join``: a sliding window in Redis, shared by every process."""
        window = max(1, int(self.config.join_window * 1000))
        args: list[int | str] = [window, self.config.join_limit, secrets.token_hex(8)]
        allowed = await self._guard(self.window(keys=[f"{PREFIX}join:{address}"], args=args))
        return bool(allowed)

    async def publish(self, node: str, message: dict[str, Any]) -> None:
        """See ``Store.publish``."""
        await self._guard(self.client.publish(self.channel(node), json.dumps(message)))
