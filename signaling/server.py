"""The aiohttp application: static site, health check and the signalling WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import ssl
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from signaling.config import ServerConfig
from signaling.guard import AddressCap, CappedTCPSite
from signaling.hub import Hub, error
from signaling.limits import TokenBucket
from signaling.rooms import Peer
from signaling.static import StaticSite
from signaling.store import Store, StoreUnavailable

log = logging.getLogger(__name__)

HUB_KEY = web.AppKey("hub", Hub)
CAP_KEY = web.AppKey("cap", AddressCap)
_CLOSE = object()


def encode(frame: dict[str, Any]) -> str:
    """Serialise an outgoing frame as strict JSON that is valid UTF-8 on the wire.

    Non-ASCII text stays as it is, except that a lone surrogate (which UTF-8 cannot carry, e.g.
    relayed from ``"\\ud800"``) makes the whole frame ASCII with ``\\uXXXX`` escapes.
    ``allow_nan=False`` refuses NaN and infinities, which ``JSON.parse`` would reject.
    """
    text = json.dumps(frame, ensure_ascii=False, allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(frame, ensure_ascii=True, allow_nan=False)
    return text


class WsConn:
    """One WebSocket client: an outgoing queue drained by a writer task.

    A client that stops reading (more than ``send_queue`` frames or ``send_queue_bytes`` bytes
    waiting) is cut off at once: its queue is dropped, it gets a close frame if its socket can
    take one within ``close_timeout`` seconds, else the connection is aborted, and the reader
    loop then ends, which takes the peer out of its room.
    """

    def __init__(
        self,
        ws: web.WebSocketResponse,
        address: str,
        config: ServerConfig,
        transport: asyncio.BaseTransport | None = None,
    ) -> None:
        self.ws = ws
        self.address = address
        self.transport = transport
        self.config = config
        self.room: str | None = None
        self.peer: Peer | None = None
        self.bucket = TokenBucket(config.msg_rate, config.msg_burst)
        self.strikes = 0
        self.close_code: int = WSCloseCode.OK
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.queued_bytes = 0
        self.closing = False
        self.cut = False
        self.writer = asyncio.create_task(self._write())

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame; a client that stops reading is disconnected."""
        if self.closing:
            return
        try:
            text = encode(frame)
        except ValueError as exc:  # a non-finite number slipped through: never send bad JSON
            log.error("dropping an unserialisable frame for %s: %s", self.address, exc)
            return
        size = len(text)
        full = self.queue.qsize() >= self.config.send_queue
        if full or self.queued_bytes + size > self.config.send_queue_bytes:
            log.warning(
                "%s is not reading (%d frames queued), dropping it", self.address, len(self)
            )
            self.cut_off(WSCloseCode.TRY_AGAIN_LATER)
            return
        self.queued_bytes += size
        self.queue.put_nowait(text)

    def __len__(self) -> int:
        """Frames waiting to be written."""
        return self.queue.qsize()

    def close(self, code: int) -> None:
        """Close after the frames already queued have been sent."""
        if self.closing:
            return
        self.closing = True
        self.close_code = code
        self.queue.put_nowait(_CLOSE)

    def cut_off(self, code: int) -> None:
        """Drop the queue and close now (the client is not reading, or the server stops)."""
        self.closing = True
        self._drain_queue()
        if self.cut:
            return
        self.cut = True
        self.close_code = code
        self.writer.cancel()
        self.writer = asyncio.create_task(self._close_now(code))

    def kick(self, code: str, message: str) -> None:
        """Send an error frame, then close (policy violation)."""
        self.send(error(code, message))
        self.close(WSCloseCode.POLICY_VIOLATION)

    def _drain_queue(self) -> None:
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued_bytes = 0

    def abort(self) -> None:
        """Drop the TCP connection and whatever it still buffers, without a close handshake."""
        if isinstance(self.transport, asyncio.Transport):
            self.transport.abort()

    async def _close_now(self, code: int) -> None:
        """Send a close frame if the socket takes it in time, else abort the connection."""
        try:
            await asyncio.wait_for(self.ws.close(code=code), self.config.close_timeout)
        except (TimeoutError, ConnectionError, RuntimeError):
            self.abort()
        except asyncio.CancelledError:
            self.abort()
            raise

    async def _write(self) -> None:
        """Drain the queue into the socket; any failure ends the connection, never just this."""
        try:
            while True:
                item = await self.queue.get()
                if item is _CLOSE:
                    await self._close_now(self.close_code)
                    return
                self.queued_bytes -= len(item)
                await self.ws.send_str(item)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a writer that stops must not leave a deaf seat behind
            log.info("writer for %s stopped: %r", self.address, exc)
            self._drain_queue()
            self.closing = True
            self.abort()

    async def finish(self) -> None:
        """Stop the writer once the socket is done (a requested close gets its timeout)."""
        if self.closing and not self.writer.done():
            with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(self.writer), self.config.close_timeout + 1)
        self.closing = True
        self._drain_queue()
        if not self.writer.done():
            self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.writer


CONNS_KEY = web.AppKey("conns", set[WsConn])


def client_address(request: web.Request, trust_forwarded: bool) -> str:
    """The address join attempts are counted against.

    Behind a reverse proxy the right-most ``X-Forwarded-For`` entry is the one our proxy added
    (the address it saw); entries to its left were sent by the client and may be forged.
    """
    if trust_forwarded:
        forwarded = request.headers.get("X-Forwarded-For", "")
        last = forwarded.split(",")[-1].strip()
        if last:
            return last
    return request.remote or "unknown"


def _utf8_size(text: str) -> int:
    """The size of a text frame on the wire."""
    return len(text.encode("utf-8", "surrogatepass"))


async def ws_handler(request: web.Request) -> web.StreamResponse:
    """``GET /ws``: one signalling client."""
    hub = request.app[HUB_KEY]
    config = hub.config
    address = client_address(request, config.trust_forwarded)
    cap = request.app[CAP_KEY]
    if config.trust_forwarded and not cap.acquire(address):  # the proxy's own address is exempt
        return web.Response(status=429, text="too many connections from this address")
    try:
        return await _serve_ws(request, hub, address)
    finally:
        if config.trust_forwarded:
            cap.release(address)


async def _serve_ws(request: web.Request, hub: Hub, address: str) -> web.WebSocketResponse:
    config = hub.config
    # one byte over 4x the limit: aiohttp refuses frames of exactly max_msg_size
    ws = web.WebSocketResponse(
        max_msg_size=config.max_frame_bytes * 4 + 1, heartbeat=config.heartbeat or None
    )
    await ws.prepare(request)
    conn = WsConn(ws, address, config, request.transport)
    conns = request.app[CONNS_KEY]
    conns.add(conn)
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
            await hub.handle_text(conn, text)
    finally:
        try:
            await hub.leave(conn)
        except StoreUnavailable as exc:  # the room store will expire the seat on its own
            log.warning("could not take %s out of its room: %s", address, exc)
        await conn.finish()
        conns.discard(conn)
        if not ws.closed:
            await conn._close_now(WSCloseCode.OK)
    return ws


async def healthz(request: web.Request) -> web.Response:
    """``GET /healthz``."""
    return web.Response(text="ok")


def make_app(config: ServerConfig | None = None, store: Store | None = None) -> web.Application:
    """Build the server application (rooms in ``store``; in memory by default)."""
    config = config or ServerConfig()
    if store is None and config.redis:
        from signaling.redis_store import RedisStore  # only a shared tier needs the client

        store = RedisStore(config, config.redis)
    app = web.Application()
    hub = Hub(config, store)
    app[HUB_KEY] = hub
    app[CONNS_KEY] = set()
    app[CAP_KEY] = AddressCap(config.max_conns_per_address)

    async def going_away(app: web.Application) -> None:
        """Server stopping: every socket gets close 1001 at once (or is aborted)."""
        conns: set[WsConn] = app[CONNS_KEY]
        live = list(conns)
        for conn in live:
            conn.cut_off(WSCloseCode.GOING_AWAY)
        writers = [conn.writer for conn in live]
        if writers:
            await asyncio.wait(writers, timeout=config.close_timeout + 1)

    async def start_hub(_app: web.Application) -> None:
        await hub.start()

    async def close_hub(_app: web.Application) -> None:
        await hub.close()

    app.on_startup.append(start_hub)
    app.on_shutdown.append(going_away)
    app.on_cleanup.append(close_hub)
    site = StaticSite(config.static_dir)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/ws", ws_handler)
    app.router.add_get("/", site.index)
    app.router.add_get("/r/{code}", site.index)
    app.router.add_get("/{path:.*}", site.asset)
    return app


async def start_server(
    config: ServerConfig,
    host: str,
    port: int,
    store: Store | None = None,
    ssl_context: ssl.SSLContext | None = None,
) -> tuple[web.AppRunner, CappedTCPSite]:
    """Start the application on ``host:port`` (0: any free port); returns runner and site.

    With ``ssl_context`` the site serves HTTPS and the signalling socket is ``wss://`` on the
    same port (a TLS handshake must finish within ``request_timeout`` seconds too).

    ``request_timeout`` bounds how long a connection may take to send a complete request head
    (and how long an idle keep-alive connection stays open). Connections per client address
    are capped at the socket level, except behind a trusted proxy, where every connection comes
    from the proxy and WebSockets are counted per forwarded address instead.
    """
    app = make_app(config, store)
    runner = web.AppRunner(
        app,
        keepalive_timeout=config.request_timeout,
        shutdown_timeout=config.close_timeout + 1,
        handle_signals=False,
        access_log=None,
    )
    await runner.setup()
    cap = AddressCap(0 if config.trust_forwarded else config.max_conns_per_address)
    site = CappedTCPSite(
        runner, host, port, cap, ssl_context=ssl_context, handshake_timeout=config.request_timeout
    )
    await site.start()
    return runner, site
