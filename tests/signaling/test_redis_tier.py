"""A shared signalling tier: several ``python -m signaling --redis`` processes on one real Redis."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.signaling.conftest import create, expect_error, join, recv, send, sync
from tests.signaling.redis_proc import Redis, running_redis
from tests.signaling.tier import ROOT, SpawnNode, node_factory


@pytest.fixture
async def redis_server() -> AsyncIterator[Redis]:
    """A real redis-server of this test, on a unix socket in a temporary folder."""
    async with running_redis() as server:
        yield server


@pytest.fixture
async def spawn(redis_server: Redis, tmp_path: Path) -> AsyncIterator[SpawnNode]:
    """Start signalling processes sharing ``redis_server``."""
    async with node_factory(redis_server.url, tmp_path) as factory:
        yield factory


async def frames_until(
    ws: aiohttp.ClientWebSocketResponse,
    done: Callable[[list[dict[str, Any]]], bool],
    timeout: float = 10.0,
) -> list[dict[str, Any]]:
    """Frames received until ``done(frames)`` holds (fails after ``timeout``)."""
    frames: list[dict[str, Any]] = []
    async with asyncio.timeout(timeout):
        while not done(frames):
            frames.append(await recv(ws, timeout))
    return frames


async def test_two_processes_share_a_room_relay_and_hand_over_the_host(spawn: SpawnNode) -> None:
    n1, n2 = await spawn(), await spawn()
    a, ja = await create(n1.server, "A")
    b, jb = await join(n2.server, ja["room"].lower(), "B")
    assert [p["name"] for p in jb["roster"]] == ["A", "B"] and jb["host"] == ja["you"]
    assert await recv(a) == {"type": "peer-joined", "peer": jb["roster"][1]}
    offer = {"sdp": {"type": "offer", "sdp": "v=0 …"}, "n": [1, 2.5, None]}
    await send(a, {"type": "signal", "to": jb["you"], "data": offer})
    assert await recv(b) == {"type": "signal", "from": ja["you"], "data": offer}
    await send(b, {"type": "signal", "to": ja["you"], "data": "ответ"})
    assert await recv(a) == {"type": "signal", "from": jb["you"], "data": "ответ"}
    await send(a, {"type": "signal", "to": "nobody", "data": 1})
    await expect_error(a, "no-peer")
    taken = await n1.server.ws()
    await send(taken, {"type": "join", "room": ja["room"], "name": "b"})
    await expect_error(taken, "name-taken")
    c, _ = await join(n1.server, ja["room"], "C")
    assert (await recv(a))["peer"]["name"] == "C" and (await recv(b))["peer"]["name"] == "C"
    await a.close()  # the host leaves: the next-oldest, on the other process, is host
    left = {"type": "peer-left", "peer": ja["you"], "host": jb["you"]}
    assert await recv(b) == left and await recv(c) == left
    for ws in (b, c, taken):
        await ws.close()


async def test_resume_across_processes(spawn: SpawnNode) -> None:
    n1, n2 = await spawn(), await spawn()
    a, ja = await create(n1.server, "A")
    b, jb = await join(n2.server, ja["room"], "B")
    await recv(a)
    fresh = await n1.server.ws()  # B reloads onto the other process; its old socket lives on
    await send(fresh, {"type": "join", "room": ja["room"], "name": "B", "resume": jb["resume"]})
    rejoined = await recv(fresh)
    assert rejoined["type"] == "joined" and rejoined["you"] != jb["you"]
    assert [(p["name"], p["order"]) for p in rejoined["roster"]] == [("A", 1), ("B", 2)]
    assert await recv(a) == {"type": "peer-left", "peer": jb["you"], "host": ja["you"]}
    assert (await recv(a))["peer"] == rejoined["roster"][1]
    await expect_error(b, "replaced")  # told by its own process, through Redis
    closing = await b.receive(timeout=5)
    assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 1008
    await a.close()  # the host reloads after its socket closed, onto the other process
    assert await recv(fresh) == {"type": "peer-left", "peer": ja["you"], "host": rejoined["you"]}
    back = await n2.server.ws()
    await send(back, {"type": "join", "room": ja["room"], "name": "A", "resume": ja["resume"]})
    again = await recv(back)
    assert again["host"] == again["you"]
    assert [(p["name"], p["order"]) for p in again["roster"]] == [("A", 1), ("B", 2)]
    assert (await recv(fresh))["peer"]["order"] == 1
    spent = await n1.server.ws()
    await send(spent, {"type": "join", "room": ja["room"], "name": "A", "resume": ja["resume"]})
    await expect_error(spent, "name-taken")
    for ws in (fresh, back, spent):
        await ws.close()


async def test_limits_hold_across_processes(spawn: SpawnNode) -> None:
    flags = ("--join-limit", "4", "--max-rooms", "1")
    n1, n2 = await spawn(*flags), await spawn(*flags)
    w1, w2 = await n1.server.ws(), await n2.server.ws()
    for ws in (w1, w2, w1):
        await send(ws, {"type": "join", "room": "AAAAAA", "name": "guess"})
        await expect_error(ws, "no-room")
    await send(w2, {"type": "create", "name": "host"})  # the 4th attempt: allowed, one room
    assert (await recv(w2))["type"] == "joined"
    await send(w1, {"type": "create", "name": "other"})  # the 5th, on the other process
    await expect_error(w1, "join-rate-limit")
    w3 = await n2.server.ws()
    await sync(w3)
    for ws in (w1, w2, w3):
        await ws.close()


async def test_room_limit_across_processes(spawn: SpawnNode) -> None:
    n1, n2 = await spawn("--max-rooms", "1"), await spawn("--max-rooms", "1")
    a, _ = await create(n1.server, "A")
    ws = await n2.server.ws()
    await send(ws, {"type": "create", "name": "B"})
    await expect_error(ws, "too-many-rooms")
    await a.close(), await ws.close()


async def test_dead_process_peers_resume_on_another_and_the_rest_are_reaped(
    spawn: SpawnNode,
) -> None:
    n1, n2 = await spawn("--node-ttl", "1"), await spawn("--node-ttl", "1")
    a, ja = await create(n1.server, "A")
    b, jb = await join(n1.server, ja["room"], "B")
    c, jc = await join(n2.server, ja["room"], "C")
    await recv(a), await recv(a), await recv(b)
    n1.kill()
    assert await asyncio.wait_for(n1.process.wait(), 10) != 0
    for ws in (a, b):  # their sockets die with the process
        msg = await ws.receive(timeout=10)
        assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    a2 = await n2.server.ws()  # A's page reconnects to the surviving process and resumes
    await send(a2, {"type": "join", "room": ja["room"], "name": "A", "resume": ja["resume"]})
    resumed = await recv(a2)
    assert resumed["type"] == "joined" and resumed["host"] == resumed["you"]
    assert resumed["roster"][0] == {"id": resumed["you"], "name": "A", "role": "player", "order": 1}
    # C hears A come back and B (who never does) leave once its process is seen to be dead
    seen = await frames_until(
        c, lambda fs: any(f.get("peer") == jb["you"] and f["type"] == "peer-left" for f in fs)
    )
    assert {"type": "peer-joined", "peer": resumed["roster"][0]} in seen
    left_b = next(f for f in seen if f["type"] == "peer-left" and f["peer"] == jb["you"])
    assert left_b["host"] == resumed["you"]
    d, jd = await join(n2.server, ja["room"], "D")
    assert [(p["name"], p["order"]) for p in jd["roster"]] == [("A", 1), ("C", 3), ("D", 4)]
    await send(c, {"type": "signal", "to": resumed["you"], "data": "снова"})
    frames = await frames_until(a2, lambda fs: any(f["type"] == "signal" for f in fs))
    assert frames[-1] == {"type": "signal", "from": jc["you"], "data": "снова"}
    for ws in (a2, c, d):
        await ws.close()


async def test_redis_restart_mid_game_is_survived(spawn: SpawnNode, redis_server: Redis) -> None:
    n1, n2 = await spawn(), await spawn()
    a, ja = await create(n1.server, "A")
    b, jb = await join(n2.server, ja["room"], "B")
    gone, jg = await join(n2.server, ja["room"], "Gone")
    await recv(a), await recv(a), await recv(b)
    await redis_server.stop()
    await send(a, {"type": "signal", "to": jb["you"], "data": 0})
    await expect_error(a, "unavailable")  # said, and the socket stays open
    await sync(a)
    await gone.close()  # leaves while Redis is away: it must leave once Redis is back
    for node in (n1, n2):  # each process says so (once), and stays up
        assert "is unreachable" in await node.wait_log("Redis at")
        assert node.process.returncode is None
    await redis_server.start()  # its append-only file still holds the room
    async with asyncio.timeout(20):
        attempt = 0
        while True:  # until both processes are subscribed again, a relay may get lost
            attempt += 1
            await send(a, {"type": "signal", "to": jb["you"], "data": attempt})
            try:
                frame = await recv(b, timeout=0.5)
                break
            except TimeoutError:
                continue
    assert frame == {"type": "signal", "from": ja["you"], "data": frame["data"]}
    seen = await frames_until(a, lambda fs: any(f["type"] == "peer-left" for f in fs))
    assert seen[-1] == {"type": "peer-left", "peer": jg["you"], "host": ja["you"]}
    c, jc = await join(n1.server, ja["room"], "C")  # the room survived the restart
    assert [p["name"] for p in jc["roster"]] == ["A", "B", "C"]
    for node in (n1, n2):
        await node.wait_log("is reachable again")
        assert node.process.returncode is None, node.log
    for ws in (a, b, c):
        await ws.close()


async def run_cli(*args: str) -> tuple[int, str]:
    """Run ``python -m signaling`` to its exit; its exit code and stderr."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "signaling", "--port", "0", *args, cwd=ROOT, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode is not None
    return proc.returncode, err.decode()


@pytest.mark.parametrize("url", ["localhost:6379", "http://127.0.0.1:6379"])
async def test_bad_redis_url_is_refused_clearly(url: str) -> None:
    code, err = await run_cli("--redis", url)
    assert code == 2 and "--redis must be a redis://" in err, err


async def test_unreachable_redis_is_said_at_start(tmp_path: Path) -> None:
    code, err = await run_cli("--redis", f"unix://{tmp_path}/none.sock", "--no-bots")
    assert code != 0 and "cannot reach Redis" in err, err
