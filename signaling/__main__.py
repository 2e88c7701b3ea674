"""``python -m signaling --host H --port P [--static DIR]``: run the signalling server."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import resource
import signal
from dataclasses import fields, replace
from pathlib import Path

from signaling.bots import BotLauncher
from signaling.config import ServerConfig
from signaling.server import HUB_KEY, start_server
from signaling.store import StoreUnavailable

LIMIT_HELP = {
    "max_frame_bytes": "largest accepted WebSocket frame",
    "max_players": "players per room",
    "max_spectators": "spectators per room",
    "max_rooms": "rooms on this server",
    "msg_rate": "messages per second per socket (token bucket rate)",
    "msg_burst": "token bucket burst per socket",
    "rate_strikes": "rate-limited frames before the socket is closed",
    "join_limit": "create/join attempts per client address per window",
    "join_window": "window of the create/join limit, seconds",
    "max_name_chars": "longest display name",
    "heartbeat": "WebSocket ping interval, seconds (0: off)",
    "send_queue": "frames queued for a slow client before it is dropped",
    "send_queue_bytes": "bytes queued for a slow client before it is dropped",
    "close_timeout": "seconds a closing socket gets for its close frame before it is aborted",
    "request_timeout": "seconds to send a complete HTTP request head (and keep-alive idle time)",
    "max_conns_per_address": "open connections per client address (0: no cap)",
    "resume_grace": "seconds a departed seat (and an empty room) waits for a reload to resume",
    "bots": "let hosts seat bots (Python peers started by this server)",
    "max_bots_per_room": "bots one room may hold",
    "max_bots": "bots on this server",
    "bot_server": "signalling URL the bots dial (default: ws://127.0.0.1:PORT/ws)",
    "trust_forwarded": "take the client address from X-Forwarded-For (behind a reverse proxy)",
    "redis": "redis://HOST:PORT/DB or unix:///PATH: share rooms with every process using it",
    "node_ttl": "with --redis: seconds after which a silent process's peers are removed",
}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options; every limit of ServerConfig is a flag."""
    parser = argparse.ArgumentParser(prog="python -m signaling", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--static", type=Path, default=None, help="folder to serve (web/dist)")
    parser.add_argument("--log-level", default="INFO")
    defaults = ServerConfig()
    for f in fields(ServerConfig):
        if f.name == "static_dir":
            continue
        value = getattr(defaults, f.name)
        if isinstance(value, bool):
            parser.add_argument(
                "--" + f.name.replace("_", "-"),
                action=argparse.BooleanOptionalAction,
                default=value,
                help=LIMIT_HELP.get(f.name, f.name),
            )
            continue
        parser.add_argument(
            "--" + f.name.replace("_", "-"),
            type=type(value),
            default=value,
            help=f"{LIMIT_HELP.get(f.name, f.name)} (default {value})",
        )
    args = parser.parse_args(argv)
    check_args(parser, args)
    return args


def check_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse values no server can run with, with a clear message."""
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be 0-65535, not {args.port}")
    if args.redis and not args.redis.startswith(("redis://", "rediss://", "unix://")):
        parser.error(f"--redis must be a redis://, rediss:// or unix:// URL, not {args.redis!r}")
    if args.node_ttl <= 0:
        parser.error("--node-ttl must be positive")


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    """Build the server configuration from parsed options."""
    values = {f.name: getattr(args, f.name) for f in fields(ServerConfig) if f.name != "static_dir"}
    if args.static is not None:
        return ServerConfig(static_dir=args.static, **values)
    return ServerConfig(**values)


def main(argv: list[str] | None = None) -> None:
    """Run the server until interrupted."""
    args = parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    config = config_from_args(args)
    if not config.bot_server and args.port:
        dial = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
        config = replace(config, bot_server=f"ws://{dial}:{args.port}/ws")
    raise_fd_limit()
    asyncio.run(serve(config, args.host, args.port))


def raise_fd_limit() -> None:
    """Use every file descriptor the system allows (each socket holds one)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def serve(config: ServerConfig, host: str, port: int) -> None:
    """Serve until SIGTERM or SIGINT, then close every socket with 1001 and stop."""
    try:
        runner, site = await start_server(config, host, port)
    except (StoreUnavailable, ValueError, OSError) as exc:
        raise SystemExit(f"python -m signaling: {exc}") from None
    hub = runner.app[HUB_KEY]
    if config.bots and hub.bots is None:  # port 0: the bots dial the port we got
        dial = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        hub.bots = BotLauncher(f"ws://{dial}:{site.port}/ws")
    print(f"serving {config.static_dir} at http://{host}:{site.port}/", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
        logging.getLogger("signaling").info("stopping: closing every socket")
    finally:
        await runner.cleanup()


if __name__ == "__main__":
    main()
