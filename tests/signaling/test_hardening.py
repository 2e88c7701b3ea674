"""Attacks on the signalling server found in issue 14, each against a real server on loopback."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from signaling.server import CONNS_KEY, HUB_KEY
from tests.signaling.conftest import (
    Server,
    StartServer,
    create,
    expect_error,
    join,
    recv,
    send,
    sync,
)

ROOT = Path(__file__).resolve().parents[2]


def strict_json(text: str) -> Any:
    """Parse like ``JSON.parse``: NaN and Infinity are errors."""

    def refuse(literal: str) -> Any:
        raise ValueError(f"{literal} is not JSON")

    return json.loads(text, parse_constant=refuse)


async def pair(server: Server) -> tuple[Any, dict[str, Any], Any, dict[str, Any]]:
    """A room with A (host) and B; A has seen B arrive."""
    a, ja = await create(server, "A")
    b, jb = await join(server, ja["room"], "B")
    assert (await recv(a))["type"] == "peer-joined"
    return a, ja, b, jb


async def wait_until(predicate: Any, timeout: float = 5.0) -> None:
    """Poll a condition of the in-process server until it holds (bounded)."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.02)


async def test_lone_surrogate_is_relayed_escaped_and_the_target_keeps_hearing(
    server: Server,
) -> None:
    a, _, b, jb = await pair(server)
    to = json.dumps(jb["you"])
    await a.send_str(f'{{"type":"signal","to":{to},"data":"\\ud800"}}')
    msg = await b.receive(timeout=5)
    assert msg.type == aiohttp.WSMsgType.TEXT
    assert strict_json(msg.data)["data"] == "\ud800"
    await send(a, {"type": "signal", "to": jb["you"], "data": "после"})
    assert (await recv(b))["data"] == "после"
    await a.close(), await b.close()


@pytest.mark.parametrize(
    "data", ["NaN", "Infinity", "-Infinity", "1e400", '{"x": [-1e400]}', '{"a": NaN}']
)
async def test_non_finite_numbers_are_refused_and_never_relayed(server: Server, data: str) -> None:
    a, _, b, jb = await pair(server)
    to = json.dumps(jb["you"])
    await a.send_str(f'{{"type":"signal","to":{to},"data":{data}}}')
    await expect_error(a, "bad-json")
    await sync(b)  # b's next frame is its pong: nothing was relayed
    await send(a, {"type": "signal", "to": jb["you"], "data": [1.5, 1e300]})
    msg = await b.receive(timeout=5)
    assert strict_json(msg.data)["data"] == [1.5, 1e300]
    await a.close(), await b.close()


async def test_client_that_stops_reading_is_removed(start_server: StartServer) -> None:
    server = await start_server(msg_rate=100_000.0, msg_burst=100_000)  # default queue limits
    assert server.app is not None
    a, ja, b, jb = await pair(server)  # b reads nothing from here on
    frames: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    left = asyncio.Event()

    async def read_a() -> None:
        async for msg in a:  # no wait_for here: on 3.11 it can swallow the cancel below
            frame = json.loads(msg.data)
            if frame["type"] == "peer-left":
                left.set()
            frames.put_nowait(frame)

    reader = asyncio.create_task(read_a())
    blob = "x" * 60_000
    for _ in range(1000):  # at most 60 MB; the kernel buffers hold a few MB
        if left.is_set():
            break
        await send(a, {"type": "signal", "to": jb["you"], "data": blob})
    await asyncio.wait_for(left.wait(), 10)
    seen = [f async for f in _drain(frames)]
    assert {"type": "peer-left", "peer": jb["you"], "host": ja["you"]} in seen
    c, jc = await join(server, ja["room"], "C")
    assert [p["name"] for p in jc["roster"]] == ["A", "C"]  # the seat is free
    hub, conns = server.app[HUB_KEY], server.app[CONNS_KEY]
    assert (ja["room"], jb["you"]) not in hub.conns
    await wait_until(lambda: len(conns) == 2)  # b's connection and its queue are gone
    assert all(conn.queued_bytes < 1_000_000 for conn in conns)
    reader.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await reader
    for ws in (a, b, c):
        await ws.close()


async def _drain(queue: asyncio.Queue[dict[str, Any]]) -> Any:
    while not queue.empty():
        yield queue.get_nowait()


async def test_forwarded_for_counts_the_proxy_added_entry(start_server: StartServer) -> None:
    server = await start_server(trust_forwarded=True, join_limit=3)
    socks = []
    for i in range(4):  # the client forges the first entry each time; the proxy adds the last
        headers = {"X-Forwarded-For": f"198.51.100.{i}, 203.0.113.7"}
        ws = await server.session.ws_connect(server.ws_url, headers=headers)
        socks.append(ws)
        await send(ws, {"type": "join", "room": "AAAAAA", "name": "guess"})
        await expect_error(ws, "no-room" if i < 3 else "join-rate-limit")
    other = await server.session.ws_connect(
        server.ws_url, headers={"X-Forwarded-For": "203.0.113.8"}
    )
    await send(other, {"type": "join", "room": "AAAAAA", "name": "guess"})
    await expect_error(other, "no-room")  # another client behind the proxy is not limited
    for ws in [*socks, other]:
        await ws.close()


def _port(server: Server) -> int:
    return int(server.base.rsplit(":", 1)[1])


async def _half_sent(port: int, source: str = "127.0.0.1") -> tuple[Any, Any]:
    """A connection that sends the start of a request head and never finishes it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    await writer.drain()
    return reader, writer


async def _closed(reader: asyncio.StreamReader, timeout: float) -> bool:
    """True when the server closes (or resets) the connection within ``timeout``."""
    try:
        return await asyncio.wait_for(reader.read(), timeout) == b""
    except ConnectionError:
        return True


async def _healthz(port: int, source: str) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    return answer


async def test_half_sent_request_is_timed_out(start_server: StartServer) -> None:
    server = await start_server(request_timeout=0.5)
    reader, writer = await _half_sent(_port(server))
    assert await _closed(reader, 5)
    writer.close()


async def test_connections_per_address_are_capped(start_server: StartServer) -> None:
    server = await start_server(max_conns_per_address=3, request_timeout=60)
    port = _port(server)
    held = [await _half_sent(port) for _ in range(3)]
    extra_reader, extra_writer = await _half_sent(port)
    assert await _closed(extra_reader, 5)  # the fourth from this address is refused at once
    assert (await _healthz(port, "127.0.0.2")).startswith(b"HTTP/1.1 200")  # others are served
    held[0][1].close()
    await asyncio.sleep(0)
    for _ in range(50):  # once the server has seen that close, a slot is free again
        with contextlib.suppress(ConnectionError):
            if (await _healthz(port, "127.0.0.1")).startswith(b"HTTP/1.1 200"):
                break
        await asyncio.sleep(0.05)
    else:
        pytest.fail("a freed slot was never reused")
    for _, writer in held[1:]:
        writer.close()
    extra_writer.close()


@pytest.mark.parametrize("name", ["\tАня", "Аня\n", "Аня\r", " \tАня", "Аня\n "])
async def test_tab_or_newline_at_either_end_is_bad_name(server: Server, name: str) -> None:
    ws = await server.ws()
    await send(ws, {"type": "create", "name": name})
    await expect_error(ws, "bad-name")
    await sync(ws)
    await ws.close()


async def test_spaces_around_a_name_are_still_trimmed(server: Server) -> None:
    ws, joined = await create(server, "\u00a0 Аня \u3000")
    assert joined["roster"][0]["name"] == "Аня"
    await ws.close()


async def test_frame_of_exactly_four_times_the_limit_gets_too_big(
    start_server: StartServer,
) -> None:
    server = await start_server(max_frame_bytes=1024)
    head = '{"type":"ping","pad":"'
    text = head + "x" * (4096 - len(head) - 2) + '"}'
    assert len(text.encode()) == 4096
    ws = await server.ws()
    await ws.send_str(text)
    await expect_error(ws, "too-big")
    msg = await ws.receive(timeout=5)
    assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 1009


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_sigterm_closes_every_socket_with_1001_promptly(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = ["-m", "signaling", "--host", "127.0.0.1", "--port", str(port), "--no-bots"]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, *args, "--static", str(tmp_path), "--log-level", "WARNING",
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = await asyncio.wait_for(proc.stdout.readline(), 20)
        assert line.startswith(b"serving "), line
        async with aiohttp.ClientSession() as session:
            server = Server(f"http://127.0.0.1:{port}", session)
            a, _, b, _ = await pair(server)
            idle = await server.ws()
            await sync(idle)
            proc.send_signal(signal.SIGTERM)
            for ws in (a, b, idle):
                msg = await ws.receive(timeout=5)
                assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 1001, msg
        assert await asyncio.wait_for(proc.wait(), 10) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
