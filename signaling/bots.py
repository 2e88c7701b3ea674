"""Bots for empty seats: the signalling server starts a Python peer (``python -m signaling.peer
--play smart``) that joins the room like any player. It sees only what its own seat may see."""

from __future__ import annotations

import logging
import subprocess
import sys

log = logging.getLogger(__name__)

BOT_NAMES = [f"Бот {i}" for i in range(1, 10)]


def free_bot_name(taken: set[str]) -> str | None:
    """The first bot name not in ``taken`` (casefolded names), or None."""
    return next((n for n in BOT_NAMES if n.casefold() not in taken), None)


class BotLauncher:
    """Starts and stops bot processes, per room."""

    def __init__(self, server_url: str, policy: str = "smart", fingerprint: str = "") -> None:
        self.server_url = server_url
        self.policy = policy
        self.fingerprint = fingerprint  # a wss:// server's certificate, pinned by the bots
        self.rooms: dict[str, dict[str, subprocess.Popen[bytes]]] = {}

    def count(self, room: str | None = None) -> int:
        """Live bots in one room, or on the whole server."""
        self._reap()
        rooms = [self.rooms.get(room, {})] if room else list(self.rooms.values())
        return sum(len(bots) for bots in rooms)

    def is_bot(self, room: str, name: str) -> bool:
        """True when ``name`` in ``room`` is one of our bots."""
        return name in self.rooms.get(room, {})

    def launch(self, room: str, name: str, seed: int = 0) -> None:
        """Start a bot called ``name`` in ``room``."""
        command = [sys.executable, "-m", "signaling.peer", "--server", self.server_url]
        command += ["--room", room, "--name", name, "--play", self.policy]
        command += ["--seed", str(seed)]
        if self.fingerprint:
            command += ["--server-fingerprint", self.fingerprint]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        self.rooms.setdefault(room, {})[name] = process
        log.info("bot %s started in room %s (pid %d)", name, room, process.pid)

    def stop_room(self, room: str) -> None:
        """Stop every bot of ``room``."""
        for name, process in self.rooms.pop(room, {}).items():
            process.terminate()
            log.info("bot %s of room %s stopped", name, room)

    def stop_all(self) -> None:
        """Stop every bot (server shutdown)."""
        for room in list(self.rooms):
            self.stop_room(room)

    def _reap(self) -> None:
        for room, bots in list(self.rooms.items()):
            for name, process in list(bots.items()):
                if process.poll() is not None:
                    del bots[name]
            if not bots:
                del self.rooms[room]
