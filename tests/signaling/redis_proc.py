"""A real ``redis-server`` of a test's own, on a unix socket in a temporary folder."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis


class Redis:
    """A redis-server of our own in a temporary folder, reached at ``url``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.socket = folder / "redis.sock"
        self.url = f"unix://{self.socket}"
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        """Start (or restart) it and wait until it answers PING."""
        binary = shutil.which("redis-server")
        assert binary is not None
        args = ["--port", "0", "--unixsocket", str(self.socket), "--unixsocketperm", "700"]
        args += ["--dir", str(self.folder), "--save", "", "--appendonly", "yes"]
        args += ["--appendfsync", "always", "--loglevel", "warning"]
        self.process = await asyncio.create_subprocess_exec(
            binary, *args, stdout=asyncio.subprocess.DEVNULL
        )
        async with asyncio.timeout(10):
            while True:
                with contextlib.suppress(OSError, aioredis.RedisError):
                    client = aioredis.from_url(self.url)
                    try:
                        if await client.ping():
                            return
                    finally:
                        await client.aclose()
                assert self.process.returncode is None, "redis-server exited"
                await asyncio.sleep(0.05)

    async def stop(self) -> None:
        """Stop it (its append-only file keeps the data for a restart)."""
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await asyncio.wait_for(self.process.wait(), 10)


@contextlib.asynccontextmanager
async def running_redis() -> AsyncIterator[Redis]:
    """A fresh redis-server, killed at the end; skips when Debian's redis-server is missing."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server; make test does)")
    folder = Path(tempfile.mkdtemp(prefix="sigredis"))  # short: unix socket paths are limited
    server = Redis(folder)
    try:
        await server.start()
        yield server
    finally:
        if server.process is not None and server.process.returncode is None:
            server.process.kill()
            await server.process.wait()
        shutil.rmtree(folder, ignore_errors=True)
