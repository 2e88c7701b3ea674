"""Real ``python -m signaling --redis`` processes on loopback ports, for shared-tier tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import aiohttp

from tests.signaling.conftest import Server

ROOT = Path(__file__).resolve().parents[2]
SERVING = re.compile(rb"^serving .* at http://127\.0\.0\.1:(\d+)/")


class Node:
    """One ``python -m signaling --redis`` process."""

    def __init__(self, process: asyncio.subprocess.Process, server: Server) -> None:
        self.process = process
        self.server = server
        self.log: list[str] = []  # what the process wrote to stderr (its log), line by line
        self.reader = asyncio.create_task(self._read_log())

    async def _read_log(self) -> None:
        assert self.process.stderr is not None
        while line := await self.process.stderr.readline():
            self.log.append(line.decode(errors="replace").rstrip("\n"))

    async def wait_log(self, needle: str, timeout: float = 20) -> str:
        """The first log line containing ``needle`` (fails after ``timeout``)."""
        async with asyncio.timeout(timeout):
            while True:
                for line in self.log:
                    if needle in line:
                        return line
                await asyncio.sleep(0.05)

    def kill(self) -> None:
        """Die at once, as a crashed process does (no goodbye to Redis or the sockets)."""
        self.process.send_signal(signal.SIGKILL)


SpawnNode = Callable[..., Awaitable[Node]]


@contextlib.asynccontextmanager
async def node_factory(redis_url: str, static: Path) -> AsyncIterator[SpawnNode]:
    """Start signalling processes on the same Redis; all are killed at the end."""
    nodes: list[Node] = []
    session = aiohttp.ClientSession()

    async def spawn(*flags: str) -> Node:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        args = ["-m", "signaling", "--host", "127.0.0.1", "--port", "0", "--redis", redis_url]
        args += ["--static", str(static), "--no-bots", "--log-level", "WARNING", *flags]
        process = await asyncio.create_subprocess_exec(
            sys.executable, *args, cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 20)
        found = SERVING.match(line)
        assert found, f"no serving line: {line!r}"
        node = Node(process, Server(f"http://127.0.0.1:{int(found[1])}", session))
        nodes.append(node)
        return node

    try:
        yield spawn
    finally:
        await session.close()
        for node in nodes:
            if node.process.returncode is None:
                node.process.kill()
            await node.process.wait()
            node.reader.cancel()
