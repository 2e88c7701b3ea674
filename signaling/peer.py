"""``python -m signaling.peer``: a command-line member of a room (the base of bots).

Output, one line each, flushed (tests and bots parse it):
``ROOM <code>`` once created or joined, ``CONNECTED <name>`` when a peer's channel is ready,
``CHAT <name>: <text>`` for each chat received, ``LEFT <name>`` when a peer goes away; with
``--play``, ``TABLE <stage>`` as its table moves on and ``RESULT <json>`` when a game ends.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
from typing import Any

import aiohttp
from aiortc import RTCIceServer

from signaling.mesh import MeshPeer, SSLSetting
from signaling.table_peer import TablePeer, make_player
from signaling.tls import parse_fingerprint

ECHO_PREFIX = "echo: "


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(prog="python -m signaling.peer", description=__doc__)
    parser.add_argument(
        "--server", required=True, help="signalling URL, ws://host:port/ws or wss://host:port/ws"
    )
    parser.add_argument(
        "--server-fingerprint",
        default="",
        help="wss:// only: trust the server's certificate by its SHA-256 fingerprint"
        " (AB:CD:… as the server prints it; for a self-signed certificate)",
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--room", help="code of the room to join")
    where.add_argument("--create", action="store_true", help="create a new room")
    parser.add_argument("--name", required=True)
    parser.add_argument("--role", choices=("player", "spectator"), default="player")
    parser.add_argument("--say", help="chat this once the first peer is connected")
    parser.add_argument("--echo", action="store_true", help="answer each chat with echo: TEXT")
    parser.add_argument(
        "--ice-server", action="append", default=[], help="STUN/TURN URL (repeatable)"
    )
    parser.add_argument(
        "--loopback",
        choices=("auto", "always", "never"),
        default="auto",
        help="gather 127.0.0.1 as an ICE candidate (auto: only when nothing else exists)",
    )
    parser.add_argument(
        "--play",
        choices=("smart", "random", "first"),
        help="take a seat at the room's table, played by this bot policy",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random bot")
    parser.add_argument("--log-level", default="WARNING")
    args = parser.parse_args(argv)
    if args.server_fingerprint:
        try:
            parse_fingerprint(args.server_fingerprint)
        except ValueError as exc:
            parser.error(f"--server-fingerprint: {exc}")
    return args


def server_ssl(fingerprint: str) -> SSLSetting:
    """How the signalling socket checks a wss:// server: pinned by fingerprint, or as usual."""
    if not fingerprint:
        return True
    return aiohttp.Fingerprint(parse_fingerprint(fingerprint))


def out(line: str) -> None:
    """One line of the peer's output protocol."""
    print(line, flush=True)


async def run(args: argparse.Namespace) -> None:
    """Join or create the room and react to chat until stopped."""
    mesh: MeshPeer
    table: TablePeer | None = None

    def on_message(peer_id: str, msg: dict[str, Any]) -> None:
        if table is not None and table.on_message(peer_id, msg):
            return
        if msg.get("t") != "chat" or not isinstance(msg.get("text"), str):
            return
        out(f"CHAT {msg.get('name')}: {msg['text']}")
        if args.echo and not msg["text"].startswith(ECHO_PREFIX):
            mesh.send_chat(ECHO_PREFIX + msg["text"])

    mesh = MeshPeer(
        args.server,
        args.name,
        args.role,
        on_message=on_message,
        ice_servers=[RTCIceServer(url) for url in args.ice_server],
        loopback=args.loopback,
        ssl=server_ssl(args.server_fingerprint),
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        code = await (mesh.create() if args.create else mesh.join(args.room))
        out(f"ROOM {code}")
        if args.play:
            table = TablePeer(mesh, make_player(args.play, args.seed), out)
            await table.start()
        await watch(mesh, args.say, stop)
    finally:
        if table is not None:
            await table.close()
        await mesh.close()


async def watch(mesh: MeshPeer, say: str | None, stop: asyncio.Event) -> None:
    """Report peers coming and going; say the --say line once someone is there.

    When the signalling server goes away the peer carries on over the links it has (a game
    outlives the server); it stops once it has neither."""
    seen: dict[str, str] = {}
    said = say is None
    lost = False
    stopping = asyncio.ensure_future(stop.wait())
    try:
        while not stop.is_set():
            ready = set(mesh.ready_peers())
            for pid in ready - seen.keys():
                seen[pid] = mesh.peers[pid].name
                out(f"CONNECTED {seen[pid]}")
            for pid in seen.keys() - mesh.peers.keys():
                out(f"LEFT {seen.pop(pid)}")
            if not said and ready and say is not None:
                wanted = len(mesh.peers)
                if len(ready) >= wanted:
                    mesh.send_chat(say)
                    said = True
            if mesh.signaling_closed and not ready:
                out("CLOSED")
                return
            if mesh.signaling_closed and not lost:
                lost = True
                out("SIGNALLING LOST")  # the links carry on
            changed = asyncio.ensure_future(mesh.wait_change())
            await asyncio.wait({changed, stopping}, return_when=asyncio.FIRST_COMPLETED)
            changed.cancel()
    finally:
        stopping.cancel()


def main(argv: list[str] | None = None) -> None:
    """Entry point."""
    args = parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
