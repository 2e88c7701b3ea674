"""Connection-level limits: at most N open TCP connections per client address.

aiohttp has no per-address cap, so the listening site wraps each connection's protocol: a
connection beyond the cap is aborted before aiohttp sees it. (Half-sent requests are timed out by
aiohttp itself, through the runner's ``keepalive_timeout``, which also bounds the time from accept
to the first complete request head.)
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections import Counter
from collections.abc import Callable
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

    __slots__ = ("_bound", "_cap", "_host", "_port")

    def __init__(
        self, runner: web.BaseRunner, host: str, port: int, cap: AddressCap, **kwargs: Any
    ) -> None:
        super().__init__(runner, **kwargs)
        self._host, self._port, self._cap = host, port, cap
        self._bound: tuple[str, int] | None = None

    @property
    def name(self) -> str:
        """The listening URL."""
        host, port = self._bound or (self._host, self._port)
        return f"http://{host}:{port}"

    @property
    def port(self) -> int:
        """The bound port (useful with port 0)."""
        return self._bound[1] if self._bound else self._port

    async def start(self) -> None:
        """Listen; each accepted connection gets a capped protocol."""
        await super().start()
        server = self._runner.server
        assert server is not None
        factory: Callable[[], asyncio.Protocol] = lambda: _Capped(server(), self._cap)  # noqa: E731
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            factory, self._host, self._port, reuse_address=True, family=socket.AF_UNSPEC
        )
        if self._server.sockets:
            sockname = self._server.sockets[0].getsockname()
            self._bound = (str(sockname[0]), int(sockname[1]))
