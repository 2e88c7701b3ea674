"""Fixtures: a real signalling server on 127.0.0.1 (port 0) and WebSocket helpers."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from signaling import server as server_module
from signaling.config import ServerConfig
from tests.signaling.redis_proc import running_redis

TIMEOUT = 5.0


class Server:
    """A running server: its base URLs, a client session and (in-process) its application."""

    def __init__(
        self, base: str, session: aiohttp.ClientSession, app: web.Application | None = None
    ) -> None:
        self.base = base
        self.app = app
        self.ws_url = base.replace("http://", "ws://") + "/ws"
        self.session = session

    async def ws(self) -> aiohttp.ClientWebSocketResponse:
        """Open a signalling socket."""
        return await self.session.ws_connect(self.ws_url)


async def recv(ws: aiohttp.ClientWebSocketResponse, timeout: float = TIMEOUT) -> dict[str, Any]:
    """The next JSON frame (fails on close or timeout)."""
    msg = await asyncio.wait_for(ws.receive(), timeout)
    assert msg.type == aiohttp.WSMsgType.TEXT, f"expected text, got {msg.type} {msg.data!r}"
    frame: dict[str, Any] = json.loads(msg.data)
    return frame


async def send(ws: aiohttp.ClientWebSocketResponse, frame: dict[str, Any]) -> None:
    """Send one JSON frame."""
    await ws.send_str(json.dumps(frame))


async def expect_error(ws: aiohttp.ClientWebSocketResponse, code: str) -> dict[str, Any]:
    """The next frame must be an error with this code."""
    frame = await recv(ws)
    assert frame == {"type": "error", "code": code, "message": frame.get("message")}, frame
    assert isinstance(frame["message"], str) and frame["message"]
    return frame


async def create(
    server: Server, name: str, role: str = "player"
) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any]]:
    """A socket that created a room, with its joined frame."""
    ws = await server.ws()
    await send(ws, {"type": "create", "name": name, "role": role})
    joined = await recv(ws)
    assert joined["type"] == "joined", joined
    return ws, joined


async def join(
    server: Server, room: str, name: str, role: str = "player"
) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any]]:
    """A socket that joined a room, with its joined frame."""
    ws = await server.ws()
    await send(ws, {"type": "join", "room": room, "name": name, "role": role})
    joined = await recv(ws)
    assert joined["type"] == "joined", joined
    return ws, joined


async def sync(ws: aiohttp.ClientWebSocketResponse) -> None:
    """Round-trip a ping: every earlier frame of this socket has been handled."""
    await send(ws, {"type": "ping"})
    assert await recv(ws) == {"type": "pong"}


async def left_room(server: Server, code: str, timeout: float = TIMEOUT) -> None:
    """Wait until the in-process server has taken every closed socket out of room ``code``."""
    assert server.app is not None
    store = server.app[server_module.HUB_KEY].store
    async with asyncio.timeout(timeout):
        while (room := await store.get(code)) is not None and room.peers:
            await asyncio.sleep(0.01)


StartServer = Callable[..., Awaitable[Server]]


@pytest.fixture(params=["memory", "redis"])
async def start_server(
    tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[StartServer]:
    """Factory: start a server with config overrides; all are stopped at teardown.

    Every test runs twice: with rooms in memory (the default) and with rooms in a real Redis
    (``--redis``), which must behave the same to a client.
    """
    runners: list[web.AppRunner] = []
    sessions: list[aiohttp.ClientSession] = []
    async with contextlib.AsyncExitStack() as stack:
        redis_url = None
        if request.param == "redis":
            redis_url = (await stack.enter_async_context(running_redis())).url

        async def start(**overrides: Any) -> Server:
            overrides.setdefault("static_dir", tmp_path / "dist")
            if redis_url:
                overrides.setdefault("redis", redis_url)
            config = replace(ServerConfig(), **overrides)
            runner, site = await server_module.start_server(config, "127.0.0.1", 0)
            runners.append(runner)
            session = aiohttp.ClientSession()
            sessions.append(session)
            return Server(f"http://127.0.0.1:{site.port}", session, runner.app)

        yield start
        for session in sessions:
            await session.close()
        for runner in runners:
            await runner.cleanup()


@pytest.fixture
async def server(start_server: StartServer) -> Server:
    """A server with default limits."""
    return await start_server()
