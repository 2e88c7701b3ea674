"""The command-line peer: prints ROOM, CHAT and CONNECTED lines and echoes chat."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

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
