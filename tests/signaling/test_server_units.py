"""Units of the server: slow clients, client addresses and the command line."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from aiohttp.test_utils import make_mocked_request

from signaling.__main__ import config_from_args, parse_args
from signaling.config import ServerConfig
from signaling.limits import TokenBucket, WindowLimiter
from signaling.server import WsConn, client_address


class StuckSocket:
    """A WebSocket whose peer never reads: sends never finish."""

    def __init__(self) -> None:
        self.closed_with: int | None = None

    async def send_str(self, data: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, message: bytes = b"") -> bool:
        self.closed_with = code
        return True


async def test_slow_client_is_closed_with_1013() -> None:
    sock = StuckSocket()
    conn = WsConn(sock, "127.0.0.1", ServerConfig(send_queue=2))  # type: ignore[arg-type]
    for n in range(5):
        conn.send({"type": "pong", "n": n})
    assert conn.closing and conn.close_code == 1013
    await conn.finish()
    assert sock.closed_with == 1013


def test_client_address_takes_the_proxy_added_forwarded_entry_only_when_trusted() -> None:
    headers = {"X-Forwarded-For": "198.51.100.1, 203.0.113.9"}  # client-sent, then proxy-added
    request = make_mocked_request("GET", "/ws", headers=headers)
    assert client_address(request, trust_forwarded=True) == "203.0.113.9"
    assert client_address(request, trust_forwarded=False) != "203.0.113.9"


def test_command_line_sets_every_limit(tmp_path: Path) -> None:
    flags = ["--max-rooms", "7", "--msg-rate", "2.5", "--trust-forwarded"]
    args = parse_args(["--port", "0", "--static", str(tmp_path), *flags])
    config = config_from_args(args)
    assert (config.max_rooms, config.msg_rate, config.trust_forwarded) == (7, 2.5, True)
    assert config.static_dir == tmp_path
    assert config_from_args(parse_args([])).trust_forwarded is False


def test_token_bucket_refills_with_time() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2.0, burst=2, clock=lambda: now[0])
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    now[0] += 0.5
    assert [bucket.take(), bucket.take()] == [True, False]


def test_window_limiter_forgets_old_attempts() -> None:
    now = [0.0]
    limiter = WindowLimiter(limit=2, window=60.0, clock=lambda: now[0])
    results: list[Any] = [limiter.hit("a"), limiter.hit("a"), limiter.hit("a"), limiter.hit("b")]
    assert results == [True, True, False, True]
    now[0] += 61
    assert limiter.hit("a")
