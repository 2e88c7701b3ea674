"""Connection-level limits: at most N open TCP connections per client address.

aiohttp has no per-address cap, so the listening site wraps each connection's protocol: a
connection beyond the cap is aborted before aiohttp sees it. (Half-sent requests are timed out by
aiohttp itself, through the runner's ``keepalive_timeout``, which also bounds the time from accept
to the first complete request head.)

A TLS site looks at each connection's first bytes (``_TLSFront``): a TLS handshake goes on to an
SSL layer in front of aiohttp, while a plain HTTP request (a friend who typed ``http://`` or no
scheme) gets a redirect to the same address over ``https://`` and is closed.
"""

from __future__ import annotations

import asyncio
import logging
import re
import socket
import ssl
from asyncio import sslproto
from collections import Counter
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)


class AddressCap:
    """Counts open connections per address; ``limit`` 0 means no cap."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: Counter[str] = Counter()
        self.refused = 0

    def acquire(self, address: str) -> bool:
        """Count a new connection; False (not counted) when the address is at the cap."""
        if self.limit and self.open[address] >= self.limit:
            self.refused += 1
            return False
        self.open[address] += 1
        return True

    def release(self, address: str) -> None:
        """Forget one closed connection."""
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


TLS_HANDSHAKE = 0x16  # the first byte of a TLS record carrying a ClientHello
MAX_PLAIN_HEAD = 8192
_HOST_HEADER = re.compile(rb"^host:[ \t]*([A-Za-z0-9.\-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?[ \t]*\r?$",
                          re.I | re.M)  # fmt: skip
_REQUEST_LINE = re.compile(rb"^[A-Z]{3,7} (/[!-~]{0,2000}) HTTP/1\.[01]\r?$", re.M)


def feed(protocol: asyncio.BaseProtocol, data: bytes) -> None:
    """Hand received bytes to a protocol, buffered (the SSL layer) or not."""
    if isinstance(protocol, asyncio.BufferedProtocol):
        view = memoryview(data)
        while view:
            buffer = memoryview(protocol.get_buffer(len(view)))
            n = min(len(buffer), len(view))
            buffer[:n] = view[:n]
            protocol.buffer_updated(n)
            view = view[n:]
    elif isinstance(protocol, asyncio.Protocol):
        protocol.data_received(data)


def redirect_to_https(head: bytes, local: tuple[str, int] | None) -> bytes:
    """A ``307`` answer sending a plain HTTP request to the same host, port and path over TLS."""
    found = _HOST_HEADER.search(head)
    if found:
        where = (found[1] + (found[2] or b"")).decode("ascii")
    elif local:
        where = f"[{local[0]}]:{local[1]}" if ":" in local[0] else f"{local[0]}:{local[1]}"
    else:
        where = "localhost"
    line = _REQUEST_LINE.search(head)
    path = line[1].decode("ascii") if line else "/"
    location = f"https://{where}{path}"
    body = (
        "<!doctype html><meta charset=utf-8><title>https</title>"
        f'<p>This server speaks https: <a href="{location}">{location}</a></p>\n'
    ).encode()
    return (
        b"HTTP/1.1 307 Temporary Redirect\r\n"
        + f"Location: {location}\r\n".encode()
        + b"Content-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\n"
        + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        + body
    )


class _TLSFront(asyncio.Protocol):
    """A TLS site's connection until its first bytes tell what it speaks.

    A TLS handshake gets an SSL layer (asyncio's own, as ``loop.create_server(ssl=…)`` would
    use) in front of aiohttp's handler, with ``timeout`` for the handshake; a plain HTTP request
    head gets ``redirect_to_https``; a connection that says nothing is closed after ``timeout``.
    """

    def __init__(self, app: asyncio.Protocol, context: ssl.SSLContext, timeout: float) -> None:
        self.app = app
        self.context = context
        self.timeout = timeout
        # asyncio's SSL layer (sslproto.SSLProtocol; typeshed's types of it are narrower than
        # what it takes and returns: no waiter, a float timeout, eof_received's answer)
        self.tls: Any = None
        self.transport: asyncio.Transport | None = None
        self.head = b""
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.timer = asyncio.get_running_loop().call_later(self.timeout, transport.abort)

    def _stop_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def data_received(self, data: bytes) -> None:
        if self.tls is not None:
            feed(self.tls, data)
            return
        assert self.transport is not None
        if self.transport.is_closing():
            return
        self.head += data
        if self.head[0] == TLS_HANDSHAKE:
            self._stop_timer()
            loop = asyncio.get_running_loop()
            make_tls: Any = sslproto.SSLProtocol
            self.tls = make_tls(
                loop, self.app, self.context, None, server_side=True,
                ssl_handshake_timeout=self.timeout,
            )  # fmt: skip
            self.tls.connection_made(self.transport)
            head, self.head = self.head, b""
            feed(self.tls, head)
            return
        if b"\r\n\r\n" in self.head or b"\n\n" in self.head or len(self.head) > MAX_PLAIN_HEAD:
            self._stop_timer()
            local = self.transport.get_extra_info("sockname")
            bound = (str(local[0]), int(local[1])) if local else None
            self.transport.write(redirect_to_https(self.head[:MAX_PLAIN_HEAD], bound))
            self.transport.close()

    def eof_received(self) -> bool | None:
        if self.tls is None:
            return None
        keep_open: bool | None = self.tls.eof_received()
        return keep_open

    def pause_writing(self) -> None:
        if self.tls is not None:
            self.tls.pause_writing()

    def resume_writing(self) -> None:
        if self.tls is not None:
            self.tls.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        if self.tls is not None:
            self.tls.connection_lost(exc)


class _Capped(asyncio.Protocol):
    """Forwards every protocol event to aiohttp's handler, once the cap let the connection in."""

    def __init__(self, inner: asyncio.Protocol, cap: AddressCap) -> None:
        self.inner = inner
        self.cap = cap
        self.address: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "unknown"
        if not self.cap.acquire(address):
            log.warning("too many connections from %s, refusing one", address)
            assert isinstance(transport, asyncio.Transport)
            transport.abort()
            return
        self.address = address
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.address is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        if self.address is None:
            return None
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        if self.address is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.address is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.address is None:
            return
        self.cap.release(self.address)
        self.address = None
        self.inner.connection_lost(exc)


class CappedTCPSite(web.BaseSite):
    """A TCP site like aiohttp's ``TCPSite`` whose connections pass through an ``AddressCap``."""

    __slots__ = ("_bound", "_cap", "_handshake_timeout", "_host", "_port")

    def __init__(
        self,
        runner: web.BaseRunner,
        host: str,
        port: int,
        cap: AddressCap,
        *,
        ssl_context: ssl.SSLContext | None = None,
        handshake_timeout: float = 10.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(runner, ssl_context=ssl_context, **kwargs)
        self._host, self._port, self._cap = host, port, cap
        self._handshake_timeout = handshake_timeout
        self._bound: tuple[str, int] | None = None

    @property
    def name(self) -> str:
        """The listening URL."""
        host, port = self._bound or (self._host, self._port)
        return f"{self.scheme}://{host}:{port}"

    @property
    def scheme(self) -> str:
        """``https`` when serving TLS, else ``http``."""
        return "https" if self._ssl_context is not None else "http"

    @property
    def port(self) -> int:
        """The bound port (useful with port 0)."""
        return self._bound[1] if self._bound else self._port

    async def start(self) -> None:
        """Listen; each accepted connection gets a capped protocol."""
        await super().start()
        server = self._runner.server
        assert server is not None
        context, timeout = self._ssl_context, self._handshake_timeout

        def factory() -> asyncio.Protocol:
            if context is None:
                return _Capped(server(), self._cap)
            # TLS: the cap counts the connection from accept on, handshake included.
            return _Capped(_TLSFront(server(), context, timeout), self._cap)

        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            factory, self._host, self._port, reuse_address=True, family=socket.AF_UNSPEC
        )
        if self._server.sockets:
            sockname = self._server.sockets[0].getsockname()
            self._bound = (str(sockname[0]), int(sockname[1]))
