"""Bots for empty seats: only the host may ask; the server starts a real Python peer that joins."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import aiohttp
from aiohttp import web

from signaling.config import ServerConfig
from signaling.server import HUB_KEY, make_app
from tests.signaling.conftest import Server, StartServer, create, expect_error, join, recv, send


async def test_add_bot_needs_host_and_enabled_bots(start_server: StartServer) -> None:
    server = await start_server(bots=False)
    host, joined = await create(server, "Аня")
    guest, _ = await join(server, joined["room"], "Боря")
    await recv(host)  # peer-joined
    await send(guest, {"type": "add-bot"})
    await expect_error(guest, "not-host")
    await send(host, {"type": "add-bot"})
    await expect_error(host, "bots-disabled")
    loose = await server.ws()
    await send(loose, {"type": "add-bot"})
    await expect_error(loose, "not-in-room")
    for ws in (host, guest, loose):
        await ws.close()


async def test_host_seats_a_real_bot_that_leaves_with_the_last_human(tmp_path: Path) -> None:
    config = replace(
        ServerConfig(), static_dir=tmp_path, bot_server="ws://unset", max_bots_per_room=1
    )
    app = make_app(config)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    hub = app[HUB_KEY]
    assert hub.bots is not None
    hub.bots.server_url = f"ws://127.0.0.1:{port}/ws"
    async with aiohttp.ClientSession() as session:
        server = Server(f"http://127.0.0.1:{port}", session)
        host, joined = await create(server, "Аня")
        await send(host, {"type": "add-bot"})
        assert await recv(host) == {"type": "bot-added", "name": "Бот 1"}
        arrived = await recv(host, timeout=30)
        assert arrived["type"] == "peer-joined" and arrived["peer"]["name"] == "Бот 1"
        await send(host, {"type": "add-bot"})
        await expect_error(host, "too-many-bots")
        process = hub.bots.rooms[joined["room"]]["Бот 1"]
        await host.close()  # the last human leaves: the bot is stopped
        for _ in range(100):
            if process.poll() is not None:
                break
            await asyncio.sleep(0.1)
        assert process.poll() is not None
    await runner.cleanup()
