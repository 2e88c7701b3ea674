"""A real ``turnserver`` (Debian's coturn) of a test's own, on a loopback port.

It runs with the TURN REST API scheme (``use-auth-secret``) and the given shared secret, relays
only on 127.0.0.1 and allows loopback peers (everything in a test namespace is on loopback).
"""

from __future__ import annotations

import contextlib
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REALM = "magic.test"


def free_udp_port() -> int:
    """A UDP and TCP port on 127.0.0.1 that nothing uses right now."""
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.bind(("127.0.0.1", 0))
            port = int(udp.getsockname()[1])
        with socket.socket() as tcp:
            try:
                tcp.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port


class Turn:
    """A running coturn: its address, shared secret and log; ``stop``/``start`` restart it."""

    def __init__(self, folder: Path, secret: str | None = None, port: int | None = None) -> None:
        self.folder = folder
        self.secret = secret or secrets.token_hex(16)
        self.port = port or free_udp_port()
        self.log = folder / "turn.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"turn:127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        binary = shutil.which("turnserver")
        assert binary is not None
        relay = self.port + 1 if self.port < 60000 else 40000
        return [
            binary, "-n",  # no configuration file: only these options
            "--listening-ip", "127.0.0.1", "--relay-ip", "127.0.0.1",
            "--listening-port", str(self.port),
            "--min-port", str(relay), "--max-port", str(relay + 200),
            "--use-auth-secret", "--static-auth-secret", self.secret, "--realm", REALM,
            "--fingerprint", "--allow-loopback-peers", "--no-tls", "--no-dtls", "--no-cli",
            "--no-rfc5780", "--no-stun-backward-compatibility",
            "--userdb", str(self.folder / "turndb"), "--verbose",
            "--log-file", str(self.log), "--simple-log", "--no-stdout-log",
            "--pidfile", str(self.folder / "turn.pid"),
        ]  # fmt: skip

    def start(self) -> None:
        """Start it and wait until its port answers."""
        self.process = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            assert self.process.poll() is None, f"turnserver exited: {self.log_text()}"
            with socket.socket() as probe:  # the TCP listener comes up with the UDP one
                probe.settimeout(0.2)
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            assert time.monotonic() < deadline, f"turnserver did not listen: {self.log_text()}"
            time.sleep(0.05)

    def stop(self) -> None:
        """Kill it at once (its allocations die with it)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@contextlib.contextmanager
def running_turn(secret: str | None = None) -> Iterator[Turn]:
    """A fresh coturn for one test; skips when Debian's coturn is missing."""
    if shutil.which("turnserver") is None:
        pytest.skip("turnserver is not installed (apt-get install coturn; make test does)")
    folder = Path(tempfile.mkdtemp(prefix="sigturn"))
    server = Turn(folder, secret)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
