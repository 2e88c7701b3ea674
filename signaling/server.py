"""The aiohttp application: static site, health check and the signalling WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from signaling.config import ServerConfig
from signaling.hub import Hub, error
from signaling.limits import TokenBucket
from signaling.rooms import Peer, Room
from signaling.static import StaticSite

log = logging.getLogger(__name__)

HUB_KEY = web.AppKey("hub", Hub)
_CLOSE = object()


class WsConn:
    """One WebSocket client: an outgoing queue drained by a writer task."""

    def __init__(self, ws: web.WebSocketResponse, address: str, config: ServerConfig) -> None:
        self.ws = ws
        self.address = address
        self.room: Room | None = None
        self.peer: Peer | None = None
        self.bucket = TokenBucket(config.msg_rate, config.msg_burst)
        self.strikes = 0
        self.close_code: int = WSCloseCode.OK
        self.queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=config.send_queue)
        self.closing = False
        self.writer = asyncio.create_task(self._write())

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame; a client that stops reading is disconnected."""
        if self.closing:
            return
        try:
            self.queue.put_nowait(json.dumps(frame, ensure_ascii=False))
        except asyncio.QueueFull:
            log.warning("send queue full for %s, closing", self.address)
            self.close(WSCloseCode.TRY_AGAIN_LATER)

    def close(self, code: int) -> None:
        """Close after the frames already queued have been sent."""
        if self.closing:
            return
        self.closing = True
        self.close_code = code
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(_CLOSE)
        if self.queue.full():
            self.writer.cancel()
            self.writer = asyncio.create_task(self._close_now(code))

    def kick(self, code: str, message: str) -> None:
        """Send an error frame, then close (policy violation)."""
        self.send(error(code, message))
        self.close(WSCloseCode.POLICY_VIOLATION)

    async def _close_now(self, code: int) -> None:
        """Close without flushing (the client is not reading)."""
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.ws.close(code=code)

    async def _write(self) -> None:
        """Drain the queue into the socket."""
        try:
            while True:
                item = await self.queue.get()
                if item is _CLOSE:
                    await self.ws.close(code=self.close_code)
                    return
                await self.ws.send_str(item)
        except (ConnectionError, RuntimeError) as exc:
            log.debug("writer for %s stopped: %s", self.address, exc)

    async def finish(self, grace: float = 5.0) -> None:
        """Stop the writer once the socket is done (a requested close gets ``grace`` s)."""
        if self.closing and not self.writer.done():
            with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(self.writer), grace)
        self.closing = True
        if not self.writer.done():
            self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.writer


def client_address(request: web.Request, trust_forwarded: bool) -> str:
    """The address join attempts are counted against."""
    if trust_forwarded:
        forwarded = request.headers.get("X-Forwarded-For", "")
        first = forwarded.split(",")[0].strip()
        if first:
            return first
    return request.remote or "unknown"


def _utf8_size(text: str) -> int:
    """The size of a text frame on the wire."""
    return len(text.encode("utf-8", "surrogatepass"))


async def ws_handler(request: web.Request) -> web.WebSocketResponse:
    """``GET /ws``: one signalling client."""
    hub = request.app[HUB_KEY]
    config = hub.config
    ws = web.WebSocketResponse(
        max_msg_size=config.max_frame_bytes * 4, heartbeat=config.heartbeat or None
    )
    await ws.prepare(request)
    conn = WsConn(ws, client_address(request, config.trust_forwarded), config)
    try:
        async for msg in ws:
            if conn.closing:
                break
            if msg.type == WSMsgType.ERROR:
                break
            if not conn.bucket.take():
                conn.strikes += 1
                if conn.strikes >= config.rate_strikes:
                    conn.kick("rate-limit", "too many messages, disconnected")
                    break
                conn.send(error("rate-limit", "too many messages per second, frame dropped"))
                continue
            if msg.type == WSMsgType.BINARY:
                conn.send(error("bad-message", "binary frames are not accepted"))
                continue
            if msg.type != WSMsgType.TEXT:
                continue
            text: str = msg.data
            if len(text) > config.max_frame_bytes or _utf8_size(text) > config.max_frame_bytes:
                conn.send(error("too-big", f"frames are at most {config.max_frame_bytes} bytes"))
                conn.close(WSCloseCode.MESSAGE_TOO_BIG)
                break
            hub.handle_text(conn, text)
    finally:
        hub.leave(conn)
        await conn.finish()
        if not ws.closed:
            await ws.close()
    return ws


async def healthz(request: web.Request) -> web.Response:
    """``GET /healthz``."""
    return web.Response(text="ok")


def make_app(config: ServerConfig | None = None) -> web.Application:
    """Build the server application."""
    config = config or ServerConfig()
    app = web.Application()
    hub = Hub(config)
    app[HUB_KEY] = hub

    async def stop_bots(_app: web.Application) -> None:
        if hub.bots is not None:
            hub.bots.stop_all()

    app.on_cleanup.append(stop_bots)
    site = StaticSite(config.static_dir)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/ws", ws_handler)
    app.router.add_get("/", site.index)
    app.router.add_get("/r/{code}", site.index)
    app.router.add_get("/{path:.*}", site.asset)
    return app
