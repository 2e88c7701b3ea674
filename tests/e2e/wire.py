"""A counting TCP proxy: every byte between the browser and a server, headers and all.

Resource Timing sees only the page's own fetches; a proxy in front of the server also sees the
service worker's install, the workers' fetches and every response's headers. It also notes the
path of each HTTP request that passes, so a test can tell which files were asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

REQUEST_LINE = re.compile(rb"(?:^|\r\n)(?:GET|HEAD|POST|PUT) (\S+) HTTP/1\.[01]\r\n")
CHUNK = 65536


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class CountingProxy:
    """Forwards 127.0.0.1:``port`` to 127.0.0.1:``upstream`` and counts the bytes each way."""

    upstream: int
    port: int = field(default_factory=free_port)
    down: int = 0  # server to browser
    up: int = 0  # browser to server
    paths: list[str] = field(default_factory=list)
    server: asyncio.Server | None = None
    conns: set[asyncio.StreamWriter] = field(default_factory=set)
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)

    async def close(self) -> None:
        """Stop listening, close every connection and wait for their forwarding to end."""
        if self.server is not None:
            self.server.close()
        for writer in list(self.conns):
            writer.close()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=10)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.tasks.add(task)
        self.conns.add(writer)
        up_writer: asyncio.StreamWriter | None = None
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
            self.conns.add(up_writer)
            await asyncio.gather(
                self._pipe(reader, up_writer, up=True), self._pipe(up_reader, writer, up=False)
            )
        except OSError:
            pass
        finally:
            for w in (writer, up_writer):
                if w is not None:
                    self.conns.discard(w)
                    w.close()
            self.tasks.discard(task)

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, up: bool
    ) -> None:
        with contextlib.suppress(OSError):
            while data := await reader.read(CHUNK):
                if up:
                    self.up += len(data)
                    found = REQUEST_LINE.finditer(data)
                    self.paths += [m.group(1).decode("latin-1") for m in found]
                else:
                    self.down += len(data)
                writer.write(data)
                await writer.drain()
        writer.close()


@contextlib.asynccontextmanager
async def counting(upstream: int) -> AsyncIterator[CountingProxy]:
    """A running proxy in front of ``upstream`` for the length of the block."""
    proxy = CountingProxy(upstream)
    await proxy.start()
    try:
        yield proxy
    finally:
        await proxy.close()
