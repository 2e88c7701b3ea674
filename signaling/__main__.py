"""``python -m signaling --host H --port P [--static DIR]``: run the signalling server.

Bound to loopback it serves plain HTTP (already a secure context for a browser on this machine);
bound to any other address it serves HTTPS with a self-signed certificate it makes and keeps under
the user's data folder (``--tls``, ``--tls-cert``/``--tls-key``; see ``signaling/tls.py``)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import resource
import signal
import sys
from dataclasses import fields
from pathlib import Path

from signaling.bots import BotLauncher
from signaling.config import ServerConfig
from signaling.server import HUB_KEY, start_server
from signaling.store import StoreUnavailable
from signaling.tls import (
    TLS_MODES,
    TLSError,
    TLSSetup,
    is_loopback,
    lan_addresses,
    setup_tls,
    wants_tls,
)
from signaling.turn import TurnConfigError, TurnIssuer, read_secret

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
    "bot_server": "signalling URL the bots dial (default: ws[s]://127.0.0.1:PORT/ws)",
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
    parser.add_argument(
        "--tls",
        choices=TLS_MODES,
        default="auto",
        help="serve HTTPS (and wss://): auto (default) = on unless --host is loopback"
        " (127.0.0.1, ::1, localhost) or on when --tls-cert is given; on; off",
    )
    parser.add_argument(
        "--tls-cert",
        type=Path,
        default=None,
        help="PEM certificate (chain) to serve; default: a self-signed one made and kept in"
        " $XDG_DATA_HOME/magic-table/tls (~/.local/share/magic-table/tls)",
    )
    parser.add_argument("--tls-key", type=Path, default=None, help="PEM key of --tls-cert")
    add_turn_args(parser)
    defaults = ServerConfig()
    for f in fields(ServerConfig):
        if f.name in NOT_FLAGS:
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


NOT_FLAGS = {"static_dir", "turn"}


def add_turn_args(parser: argparse.ArgumentParser) -> None:
    """The TURN options: URLs, the secret shared with coturn, how long a credential lives."""
    group = parser.add_argument_group(
        "TURN relay", "pages get these ICE servers with fresh short-lived credentials on joining"
    )
    group.add_argument(
        "--turn-url",
        action="append",
        default=[],
        metavar="URL",
        help="turn:HOST:PORT[?transport=udp|tcp], turns:… or stun:… (repeat for several)",
    )
    group.add_argument(
        "--turn-secret-file",
        type=Path,
        default=None,
        metavar="PATH",
        help="file holding coturn's static-auth-secret (first line)",
    )
    group.add_argument(
        "--turn-secret",
        default="",
        metavar="SECRET",
        help="the secret itself (visible to other users in the process list: prefer the file)",
    )
    group.add_argument(
        "--turn-ttl",
        type=float,
        default=3600.0,
        metavar="SECONDS",
        help="how long an issued credential works (default 3600)",
    )
    group.add_argument(
        "--turn-relay-only",
        action="store_true",
        help="pages connect only through the relay, so peers never learn each other's address",
    )


def turn_from_args(args: argparse.Namespace) -> TurnIssuer | None:
    """The TURN issuer the options describe, or TurnConfigError."""
    if args.turn_secret and args.turn_secret_file is not None:
        raise TurnConfigError("give --turn-secret or --turn-secret-file, not both")
    secret = args.turn_secret.strip()
    if args.turn_secret_file is not None:
        secret = read_secret(args.turn_secret_file)
    return TurnIssuer.build(args.turn_url, secret, args.turn_ttl, args.turn_relay_only)


def check_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse values no server can run with, with a clear message."""
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be 0-65535, not {args.port}")
    if args.redis and not args.redis.startswith(("redis://", "rediss://", "unix://")):
        parser.error(f"--redis must be a redis://, rediss:// or unix:// URL, not {args.redis!r}")
    if args.node_ttl <= 0:
        parser.error("--node-ttl must be positive")
    if (args.tls_cert is None) != (args.tls_key is None):
        parser.error("--tls-cert and --tls-key go together: give both or neither")
    if args.tls == "off" and args.tls_cert is not None:
        parser.error("--tls off cannot be used with --tls-cert/--tls-key")
    try:
        args.turn = turn_from_args(args)
    except TurnConfigError as exc:
        parser.error(str(exc))


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
    tls = None
    if wants_tls(args.tls, args.host, args.tls_cert):
        try:
            tls = setup_tls(args.host, args.tls_cert, args.tls_key)
        except TLSError as exc:  # like a bad option: exit code 2
            print(f"python -m signaling: error: {exc}", file=sys.stderr)
            raise SystemExit(2) from None
    raise_fd_limit()
    asyncio.run(serve(config, args.host, args.port, tls))


def raise_fd_limit() -> None:
    """Use every file descriptor the system allows (each socket holds one)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def url(scheme: str, host: str, port: int) -> str:
    """``scheme://host:port/`` with an IPv6 address in brackets."""
    return f"{scheme}://[{host}]:{port}/" if ":" in host else f"{scheme}://{host}:{port}/"


def announce(host: str, port: int, tls: TLSSetup | None) -> None:
    """After the ``serving`` line: where friends go, and the certificate they will be shown."""
    wildcard = host in ("", "0.0.0.0", "::")
    scheme = "https" if tls else "http"
    if tls is None:
        if not is_loopback(host):
            print(
                "warning: plain http beyond this machine: a friend's browser gets no secure"
                " context (no WebCrypto, microphone or camera); drop --tls off to serve https",
                flush=True,
            )
        return
    where = "given"
    if tls.generated:
        where = f"made now ({tls.why})" if tls.made else "kept from an earlier start"
    print(f"TLS certificate {tls.cert_path}, {where}", flush=True)
    print(f"SHA-256 fingerprint {tls.fingerprint}", flush=True)
    versions = {"0.0.0.0": {4}, "::": {6}}.get(host, {4, 6})  # "::" is IPv6 only (V6ONLY)
    lan = [str(a) for a in lan_addresses() if a.version in versions]
    addresses = (lan or ["localhost"]) if wildcard else [host]
    for address in addresses:
        print(f"friends open {url(scheme, address, port)}", flush=True)
    if tls.generated:
        print(
            "the certificate is self-signed: each browser warns once; compare its SHA-256"
            " fingerprint with the one above, then proceed to the site",
            flush=True,
        )


async def serve(config: ServerConfig, host: str, port: int, tls: TLSSetup | None = None) -> None:
    """Serve until SIGTERM or SIGINT, then close every socket with 1001 and stop."""
    context = tls.context if tls else None
    try:
        runner, site = await start_server(config, host, port, ssl_context=context)
    except (StoreUnavailable, ValueError, OSError) as exc:
        raise SystemExit(f"python -m signaling: {exc}") from None
    hub = runner.app[HUB_KEY]
    scheme = "https" if tls else "http"
    if config.bots and hub.bots is None:  # the bots dial the port we got, over wss with TLS
        dial = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host
        ws_url = url("wss" if tls else "ws", dial, site.port) + "ws"
        hub.bots = BotLauncher(ws_url, fingerprint=tls.fingerprint if tls else "")
    print(f"serving {config.static_dir} at {url(scheme, host, site.port)}", flush=True)
    announce(host, site.port, tls)
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
