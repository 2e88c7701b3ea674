"""The command-line peer: prints ROOM, CHAT and CONNECTED lines and echoes chat."""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from signaling import server as server_module
from signaling.config import ServerConfig
from signaling.mesh import MeshPeer
from tests.signaling.conftest import Server

ROOT = Path(__file__).resolve().parents[2]


async def read_line(proc: asyncio.subprocess.Process, prefix: str) -> str:
    """The next stdout line starting with ``prefix`` (others are skipped)."""
    assert proc.stdout is not None
    while True:
        raw = await asyncio.wait_for(proc.stdout.readline(), 20)
        assert raw, f"peer exited before printing {prefix!r}"
        line = raw.decode().rstrip("\n")
        if line.startswith(prefix):
            return line


async def test_create_echo_and_say(server: Server) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = ["-m", "signaling.peer", "--server", server.ws_url, "--create", "--name", "Эхо"]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, *args, "--echo", "--say", "готов", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    got: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    peer = MeshPeer(server.ws_url, "Аня", on_message=lambda pid, msg: got.put_nowait(msg))
    try:
        code = (await read_line(proc, "ROOM ")).split()[1]
        await peer.join(code)
        await peer.wait_connected(1)
        assert await read_line(proc, "CONNECTED ") == "CONNECTED Аня"
        first = await asyncio.wait_for(got.get(), 10)
        assert (first["t"], first["name"], first["text"]) == ("chat", "Эхо", "готов")
        peer.send_chat("привет: мир")
        assert await read_line(proc, "CHAT ") == "CHAT Аня: привет: мир"
        echo = await asyncio.wait_for(got.get(), 10)
        assert echo["text"] == "echo: привет: мир"
        await peer.close()
        assert await read_line(proc, "LEFT ") == "LEFT Аня"
    finally:
        await peer.close()
        if proc.returncode is None:
            proc.terminate()
        assert await asyncio.wait_for(proc.wait(), 10) is not None


async def test_the_peer_outlives_the_server_over_its_links(tmp_path: Path) -> None:
    config = replace(ServerConfig(), static_dir=tmp_path, bots=False)
    runner, site = await server_module.start_server(config, "127.0.0.1", 0)
    url = f"ws://127.0.0.1:{site.port}/ws"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = ["-m", "signaling.peer", "--server", url, "--create", "--name", "Эхо", "--echo"]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, *args, cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE
    )
    got: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    peer = MeshPeer(url, "Аня", on_message=lambda pid, msg: got.put_nowait(msg))
    try:
        code = (await read_line(proc, "ROOM ")).split()[1]
        await peer.join(code)
        await peer.wait_connected(1)
        await read_line(proc, "CONNECTED ")
        await runner.cleanup()  # the server is gone; the link between the two is not
        assert await read_line(proc, "SIGNALLING ") == "SIGNALLING LOST"
        peer.send_chat("ты тут?")
        assert await read_line(proc, "CHAT ") == "CHAT Аня: ты тут?"
        assert (await asyncio.wait_for(got.get(), 10))["text"] == "echo: ты тут?"
        await peer.close()  # no server and no link left: it stops
        assert await read_line(proc, "CLOSED") == "CLOSED"
        assert await asyncio.wait_for(proc.wait(), 20) == 0
    finally:
        await peer.close()
        await runner.cleanup()
        if proc.returncode is None:
            proc.terminate()
            await proc.wait()
