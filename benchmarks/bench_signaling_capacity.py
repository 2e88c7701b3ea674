"""What one signalling process holds: open sockets, memory per socket, relays per CPU-second.

A real ``python -m signaling`` process (no bots, limits raised so that only the cost is measured)
and asyncio clients on loopback. Memory is the server's resident set (``/proc/PID/status``) before
and after the sockets join rooms of six; CPU is the server's own user + system time
(``/proc/PID/stat``), so the clients' work does not count. The floor is the cheapest frame there
is, a ``ping`` answered by ``pong``, timed the same way in the same run; a relay (``signal`` to a
peer of the room, parsed, checked, re-serialised, queued) is compared with it. With ``--redis``
the same relays cross two processes through a real ``redis-server`` (pub/sub), and the CPU of both
processes and of Redis counts.

Run in a loopback-only namespace: ``unshare -rn sh -c 'ip link set lo up && python -m
benchmarks.bench_signaling_capacity [--sockets 3000] [--redis]'``.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks import options
from tests.e2e.harness import ROOT, free_port

TICKS = os.sysconf("SC_CLK_TCK")
LIMITS = [
    "--no-bots", "--max-conns-per-address", "0", "--join-limit", "1000000",
    "--max-rooms", "100000", "--msg-rate", "1000000", "--msg-burst", "1000000",
    "--send-queue", "100000", "--send-queue-bytes", "100000000", "--log-level", "WARNING",
]  # fmt: skip
ROOM = 6
SIGNAL = {"sdp": {"type": "offer", "sdp": "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n" + "a=x\r\n" * 30}}


def rss_kib(pid: int) -> int:
    """Resident memory of a process, KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


@asynccontextmanager
async def server_process(*extra: str) -> AsyncIterator[tuple[subprocess.Popen[str], str]]:
    """A signalling process on a free loopback port; yields it and its ws:// URL."""
    port = free_port()
    command = [sys.executable, "-m", "signaling", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen([*command, *LIMITS, *extra], cwd=ROOT, text=True)
    try:
        for _ in range(200):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    break
            except OSError:
                await asyncio.sleep(0.1)
        yield process, f"ws://127.0.0.1:{port}/ws"
    finally:
        process.terminate()
        process.wait(timeout=20)


async def recv(ws: aiohttp.ClientWebSocketResponse) -> dict[str, object]:
    msg = await ws.receive(timeout=30)
    if msg.type != aiohttp.WSMsgType.TEXT:
        raise RuntimeError(f"socket closed: {msg.type} {msg.data} {msg.extra}")
    frame: dict[str, object] = json.loads(msg.data)
    return frame


async def seat(
    session: aiohttp.ClientSession, urls: list[str], sockets: int
) -> list[tuple[aiohttp.ClientWebSocketResponse, str, str]]:
    """Open ``sockets`` sockets in rooms of six (round-robin over ``urls``); (ws, room, id)."""
    seated: list[tuple[aiohttp.ClientWebSocketResponse, str, str]] = []
    room = ""
    for n in range(sockets):
        ws = await session.ws_connect(urls[n % len(urls)], heartbeat=None, max_msg_size=0)
        if n % ROOM == 0:
            await ws.send_str(json.dumps({"type": "create", "name": f"p{n}"}))
        else:
            await ws.send_str(json.dumps({"type": "join", "room": room, "name": f"p{n}"}))
        joined = await recv(ws)
        assert joined["type"] == "joined", joined
        room = str(joined["room"])
        seated.append((ws, room, str(joined["you"])))
    return seated


async def drain(ws: aiohttp.ClientWebSocketResponse, kind: str, count: int) -> None:
    """Read frames until ``count`` of type ``kind`` have come."""
    seen = 0
    while seen < count:
        if (await recv(ws)).get("type") == kind:
            seen += 1


async def pump(
    pairs: list[tuple[aiohttp.ClientWebSocketResponse, aiohttp.ClientWebSocketResponse, str]],
    frame_of: object,
    kind: str,
    per_pair: int,
) -> None:
    """Each sender sends ``per_pair`` frames (in batches); its receiver reads them all."""

    async def one(
        sender: aiohttp.ClientWebSocketResponse, receiver: aiohttp.ClientWebSocketResponse, to: str
    ) -> None:
        text = json.dumps(
            frame_of if kind == "pong" else {"type": "signal", "to": to, "data": frame_of}
        )
        reader = asyncio.create_task(drain(receiver, kind, per_pair))
        for start in range(0, per_pair, 50):
            for _ in range(min(50, per_pair - start)):
                await sender.send_str(text)
            await asyncio.sleep(0)
        await reader

    await asyncio.gather(*(one(s, r, to) for s, r, to in pairs))


async def cost(pids: list[int], work: object) -> list[float]:
    """CPU seconds each of the processes ``pids`` spends while ``work`` (a coroutine) runs."""
    before = [cpu_seconds(p) for p in pids]
    await work  # type: ignore[misc]
    return [cpu_seconds(p) - b for p, b in zip(pids, before, strict=True)]


async def measure(urls: list[str], pids: list[int], sockets: int, frames: int) -> dict[str, Any]:
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        idle = sum(rss_kib(p) for p in pids[: len(urls)])
        started = time.perf_counter()
        seated = await seat(session, urls, sockets)
        seat_s = time.perf_counter() - started
        await asyncio.sleep(1.0)
        held = sum(rss_kib(p) for p in pids[: len(urls)])
        for ws, _, _ in seated:  # peer-joined frames still queued for the clients
            while True:
                try:
                    await ws.receive(timeout=0.001)
                except TimeoutError:
                    break
        # the room's first and second peers: with two processes they sit on different ones
        pairs = [(seated[i][0], seated[i + 1][0], seated[i + 1][2]) for i in range(0, 60, ROOM)]
        per_pair = frames // len(pairs)
        pong_cpu = await cost(
            pids, pump([(s, s, "") for s, _, _ in pairs], {"type": "ping"}, "pong", per_pair)
        )
        relay_cpu = await cost(pids, pump(pairs, SIGNAL, "signal", per_pair))
        for ws, _, _ in seated:
            await ws.close()
    done = per_pair * len(pairs)
    split = " + ".join(f"{c:.2f}" for c in relay_cpu)
    return {
        "relay_split": split,
        "sockets": sockets,
        "seat_s": seat_s,
        "idle_mib": idle / 1024,
        "held_mib": held / 1024,
        "kib_per_socket": (held - idle) / sockets,
        "pongs_per_cpu_s": done / sum(pong_cpu),
        "relays_per_cpu_s": done / sum(relay_cpu),
        "frames": done,
    }


@asynccontextmanager
async def redis_server() -> AsyncIterator[tuple[subprocess.Popen[bytes], str]]:
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"benchredis{os.getpid()}"
    folder.mkdir(exist_ok=True)
    sock = folder / "redis.sock"
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not installed (apt-get install redis-server)")
    args = ["--port", "0", "--unixsocket", str(sock), "--save", "", "--appendonly", "no"]
    process = subprocess.Popen([binary, *args], stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if sock.exists():
                break
            await asyncio.sleep(0.05)
        yield process, f"unix://{sock}"
    finally:
        process.kill()
        process.wait()
        shutil.rmtree(folder, ignore_errors=True)


async def main(sockets: int, frames: int, use_redis: bool) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if use_redis:
        async with (
            redis_server() as (redis, url),
            server_process("--redis", url) as (a, a_url),
            server_process("--redis", url) as (b, b_url),
        ):
            pids = [a.pid, b.pid, redis.pid]
            figures = await measure([a_url, b_url], pids, sockets, frames)
        label = "two processes + Redis"
    else:
        async with server_process() as (server, url):
            figures = await measure([url], [server.pid], sockets, frames)
        label = "one process, in memory"
    print(f"signalling capacity ({label}), {figures['sockets']} sockets in rooms of {ROOM}:")
    print(f"  seating them took {figures['seat_s']:.1f} s")
    print(
        f"  resident memory {figures['idle_mib']:.1f} MiB idle -> {figures['held_mib']:.1f} MiB"
        f" holding them: {figures['kib_per_socket']:.1f} KiB per socket"
    )
    floor, relays = figures["pongs_per_cpu_s"], figures["relays_per_cpu_s"]
    print(f"  floor (ping -> pong): {floor:,.0f} frames per CPU-second")
    print(
        f"  relays (signal, {len(json.dumps(SIGNAL))} B of data): {relays:,.0f} per CPU-second"
        f" = {relays / floor:.2f}x the floor ({figures['frames']} frames each;"
        f" CPU seconds by process: {figures['relay_split']})"
    )


if __name__ == "__main__":
    parser = options.parser(__doc__)
    parser.add_argument("--sockets", type=options.whole(1, 100_000, "sockets"), default=3000)
    parser.add_argument("--frames", type=options.whole(1, 10_000_000, "frames"), default=60000)
    parser.add_argument("--redis", action="store_true", help="two processes sharing a redis-server")
    asked = parser.parse_args()
    asyncio.run(main(asked.sockets, asked.frames, asked.redis))
