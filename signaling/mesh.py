"""MeshPeer: a Python member of a room — signalling socket plus one WebRTC link per peer."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import secrets
import ssl as ssl_module
import time
from collections.abc import Callable, Coroutine
from typing import Any, Literal

import aiohttp
from aiortc import RTCIceServer

from signaling.ice import LoopbackMode, use_loopback_candidates
from signaling.link import PeerLink, encode

log = logging.getLogger(__name__)

OnMessage = Callable[[str, dict[str, Any]], Any]
SSLSetting = ssl_module.SSLContext | aiohttp.Fingerprint | bool


class SignalingError(Exception):
    """The server refused a request; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def now_ms() -> int:
    """Wall-clock milliseconds, as used in chat and ping messages."""
    return int(time.time() * 1000)


def server_ice(servers: Any) -> list[RTCIceServer]:
    """The ICE servers a ``joined`` frame hands out (TURN with short-lived credentials)."""
    if not isinstance(servers, list):
        return []
    result = []
    for server in servers:
        if isinstance(server, dict) and isinstance(server.get("urls"), list | str):
            urls = server["urls"]
            username, credential = server.get("username"), server.get("credential")
            result.append(RTCIceServer(urls, username=username, credential=credential))
    return result


class MeshPeer:
    """Joins a room through the signalling server and keeps a data channel to every peer.

    ``on_message(peer_id, obj)`` receives every data-channel message except the mesh's own
    ``hello``/``ping``/``pong`` (so chat and game messages); it may be a coroutine function.
    ``on_open(peer_id)`` and ``on_close(peer_id)`` are told when a peer's channel opens and when
    the peer leaves the room.
    """

    def __init__(
        self,
        server: str,
        name: str,
        role: str = "player",
        *,
        on_message: OnMessage | None = None,
        ice_servers: list[RTCIceServer] | None = None,
        loopback: LoopbackMode = "auto",
        ssl: SSLSetting = True,
    ) -> None:
        self.server = server
        self.ssl = ssl  # for wss://: True verifies as usual, an aiohttp.Fingerprint pins
        self.name = name
        self.role = role
        self.on_message = on_message
        self.on_open: Callable[[str], None] | None = None
        self.on_close: Callable[[str], None] | None = None
        self.ice_servers = list(ice_servers or [])
        use_loopback_candidates(loopback)
        self.id: str | None = None
        self.room: str | None = None
        self.host: str | None = None
        self.resume: str | None = None
        self.peers: dict[str, PeerLink] = {}
        self.errors: list[SignalingError] = []
        self._session: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task[None] | None = None
        self._reply: asyncio.Future[dict[str, Any]] | None = None
        self._changed = asyncio.Event()
        self._pings: dict[int, asyncio.Future[float]] = {}
        self._ping_n = 0
        self._tasks: set[asyncio.Task[Any]] = set()

    # ---- signalling -------------------------------------------------------------------

    async def create(self) -> str:
        """Create a room; returns its code."""
        await self._request({"type": "create", "name": self.name, "role": self.role})
        assert self.room is not None
        return self.room

    async def join(self, code: str, resume: str | None = None) -> str:
        """Join a room by code; offers to every peer already there. Returns the code."""
        frame: dict[str, Any] = {"type": "join", "room": code, "name": self.name}
        frame["role"] = self.role
        if resume is not None:
            frame["resume"] = resume
        await self._request(frame)
        assert self.room is not None
        return self.room

    async def _connect(self) -> aiohttp.ClientWebSocketResponse:
        """Open the signalling socket once."""
        if self._ws is None:
            self._session = aiohttp.ClientSession()
            self._ws = await self._session.ws_connect(self.server, heartbeat=20, ssl=self.ssl)
            self._reader = asyncio.create_task(self._read(self._ws), name="signaling-reader")
        return self._ws

    async def _request(self, frame: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Send create/join and wait for joined or an error."""
        ws = await self._connect()
        self._reply = asyncio.get_running_loop().create_future()
        await ws.send_str(json.dumps(frame))
        try:
            return await asyncio.wait_for(self._reply, timeout)
        finally:
            self._reply = None

    async def _send_frame(self, frame: dict[str, Any]) -> None:
        """Send one frame to the server (dropped when the socket is gone)."""
        if self._ws is None or self._ws.closed:
            log.warning("signalling socket closed, frame %s dropped", frame.get("type"))
            return
        await self._ws.send_str(json.dumps(frame))

    async def _send_signal(self, to: str, data: dict[str, Any]) -> None:
        """Relay WebRTC signalling data to one peer."""
        await self._send_frame({"type": "signal", "to": to, "data": data})

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        """Handle server frames until the socket closes."""
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            try:
                frame = json.loads(msg.data)
                await self._on_frame(frame)
            except Exception:
                log.exception("bad frame from server: %.200s", msg.data)
        if self._reply is not None and not self._reply.done():
            self._reply.set_exception(SignalingError("closed", "signalling socket closed"))
        self._changed.set()

    async def _on_frame(self, frame: dict[str, Any]) -> None:
        """Apply one server frame."""
        kind = frame.get("type")
        if kind == "joined":
            self._on_joined(frame)
        elif kind == "peer-joined":
            peer = frame["peer"]
            if peer["id"] != self.id and peer["id"] not in self.peers:
                self._open_link(peer, offerer=False)
        elif kind == "peer-left":
            self.host = frame.get("host")
            link = self.peers.pop(frame["peer"], None)
            if link is not None:
                await link.close()
                if self.on_close is not None:
                    self.on_close(link.id)
        elif kind == "signal":
            sender = frame["from"]
            link = self.peers.get(sender)
            if link is None:
                link = self._open_link({"id": sender}, offerer=False)
            link.signal(frame.get("data"))
        elif kind == "error":
            err = SignalingError(str(frame.get("code")), str(frame.get("message")))
            if self._reply is not None and not self._reply.done():
                self._reply.set_exception(err)
            else:
                log.warning("server error %s", err)
                self.errors.append(err)
        self._changed.set()

    def _on_joined(self, frame: dict[str, Any]) -> None:
        """We are in: remember the room and offer to everyone already there."""
        self.id, self.room, self.host = frame["you"], frame["room"], frame["host"]
        self.resume = frame.get("resume")
        self.ice_servers += server_ice(frame.get("iceServers"))
        for peer in frame["roster"]:
            if peer["id"] != self.id:
                self._open_link(peer, offerer=True)
        if self._reply is not None and not self._reply.done():
            self._reply.set_result(frame)

    def _open_link(self, peer: dict[str, Any], offerer: bool) -> PeerLink:
        """Start a link to one peer."""
        link = PeerLink.open(
            peer, offerer, self.ice_servers, self._send_signal, self._on_data, self._on_link
        )
        self.peers[link.id] = link
        return link

    # ---- data channel -----------------------------------------------------------------

    def _on_link(self, link: PeerLink) -> None:
        """A link changed state: say hello as soon as its channel opens."""
        if link.state == "open" and not link.said_hello:
            link.said_hello = True
            link.send_text(encode({"t": "hello", "name": self.name, "id": self.id}))
            if self.on_open is not None:
                self.on_open(link.id)
        self._changed.set()

    def _on_data(self, link: PeerLink, text: str) -> None:
        """One data-channel message: handle the mesh's own, pass the rest on."""
        try:
            obj = json.loads(text)
        except ValueError:
            log.warning("malformed data-channel message from %s ignored", link.id)
            return
        kind = obj.get("t") if isinstance(obj, dict) else None
        if not isinstance(kind, str):
            log.warning("data-channel message without a type from %s ignored", link.id)
            return
        if kind == "hello":
            link.hello = obj
            if isinstance(obj.get("name"), str):
                link.name = obj["name"]
            self._changed.set()
        elif kind == "ping":
            link.send_text(encode({"t": "pong", "n": obj.get("n"), "ts": obj.get("ts")}))
        elif kind == "pong":
            waiter = self._pings.pop(obj.get("n"), None) if isinstance(obj.get("n"), int) else None
            if waiter is not None and not waiter.done():
                waiter.set_result(time.perf_counter())
        else:
            self._deliver(link.id, obj)

    def _deliver(self, peer_id: str, obj: dict[str, Any]) -> None:
        """Call on_message; exceptions are logged, coroutines are scheduled."""
        if self.on_message is None:
            return
        try:
            result = self.on_message(peer_id, obj)
        except Exception:
            log.exception("on_message failed for %s", obj.get("t"))
            return
        if inspect.isawaitable(result):
            task = asyncio.ensure_future(result)
            self._tasks.add(task)
            task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        """Forget a finished callback task, logging its failure."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("on_message task failed", exc_info=task.exception())

    # ---- public API -------------------------------------------------------------------

    def send(self, peer_id: str, obj: dict[str, Any]) -> bool:
        """Send a JSON message to one peer; False when its channel is not open."""
        link = self.peers.get(peer_id)
        return link is not None and link.send_text(encode(obj))

    def broadcast(self, obj: dict[str, Any]) -> int:
        """Send a JSON message to every open channel; returns how many got it."""
        text = encode(obj)
        return sum(1 for link in list(self.peers.values()) if link.send_text(text))

    def send_chat(self, text: str) -> dict[str, Any]:
        """Broadcast a chat line; returns the message sent."""
        msg = {
            "t": "chat",
            "id": secrets.token_urlsafe(8),
            "from": self.id,
            "name": self.name,
            "text": text,
            "ts": now_ms(),
        }
        self.broadcast(msg)
        return msg

    async def ping(self, peer_id: str, timeout: float = 5.0) -> float:
        """Round-trip time to one peer over the data channel, in seconds."""
        self._ping_n += 1
        n = self._ping_n
        waiter: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._pings[n] = waiter
        start = time.perf_counter()
        if not self.send(peer_id, {"t": "ping", "n": n, "ts": now_ms()}):
            self._pings.pop(n, None)
            raise ConnectionError(f"no open channel to {peer_id}")
        try:
            return await asyncio.wait_for(waiter, timeout) - start
        finally:
            self._pings.pop(n, None)

    @property
    def signaling_closed(self) -> bool:
        """The signalling socket is gone (the server closed it or close() was called)."""
        return self._reader is not None and self._reader.done()

    def wait_change(self) -> Coroutine[Any, Any, Literal[True]]:
        """Awaitable for the next change of room or link state.

        Call it right after checking the state (no await in between): the change flag is
        cleared at the call, not when the result is first awaited.
        """
        self._changed.clear()
        return self._changed.wait()

    def ready_peers(self) -> list[str]:
        """Ids of peers whose channel is open and who said hello."""
        return [pid for pid, link in self.peers.items() if link.ready]

    async def wait_connected(self, n: int, timeout: float = 15.0) -> None:
        """Wait until at least ``n`` peers are ready; TimeoutError with a state dump."""

        async def until_ready() -> None:
            while len(self.ready_peers()) < n:
                await self.wait_change()

        try:
            await asyncio.wait_for(until_ready(), timeout)
        except TimeoutError:
            raise TimeoutError(f"{self.name}: {n} peers wanted; {self.describe()}") from None

    def describe(self) -> str:
        """Each link's state, for failure messages."""
        parts = []
        for link in self.peers.values():
            ice = link.pc.iceConnectionState
            parts.append(f"{link.name or link.id}: {link.state} ice={ice} hello={bool(link.hello)}")
        return "; ".join(parts) or "no peers"

    async def leave(self) -> None:
        """Leave the room but keep the signalling socket."""
        await self._send_frame({"type": "leave"})
        await self._close_links()
        self.room = self.id = self.host = None

    async def _close_links(self) -> None:
        """Close every peer connection."""
        links = list(self.peers.values())
        self.peers.clear()
        for link in links:
            await link.close()

    async def close(self) -> None:
        """Close every link and the signalling socket."""
        await self._close_links()
        for task in list(self._tasks):
            task.cancel()
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        if self._session is not None:
            await self._session.close()
