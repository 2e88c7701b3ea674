"""Short-lived TURN credentials: the TURN REST API shared-secret scheme (coturn `use-auth-secret`).

The signalling server and the TURN server share one secret (coturn's ``static-auth-secret``).
For each seat the server issues ``username = "<expiry unix time>:<peer id>"`` and
``credential = base64(HMAC-SHA1(secret, username))``; coturn recomputes the HMAC and refuses a
username whose time has passed, so what a page receives stops working after ``ttl`` seconds and
the secret itself never leaves the server.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

TURN_SCHEMES = ("turn:", "turns:")
ICE_SCHEMES = (*TURN_SCHEMES, "stun:", "stuns:")
MIN_TTL = 60.0
MAX_TTL = 7 * 24 * 3600.0


class TurnConfigError(ValueError):
    """A TURN option that no server can work with; the message says which and why."""


def credential(secret: str, username: str) -> str:
    """``base64(HMAC-SHA1(secret, username))``, as coturn computes it."""
    digest = hmac.new(secret.encode("utf-8"), username.encode("utf-8"), hashlib.sha1).digest()
    return base64.b64encode(digest).decode("ascii")


def check_ice_url(url: str) -> str:
    """A ``turn:``/``turns:``/``stun:`` URL (RFC 7064/7065) checked, or TurnConfigError."""
    if not url.startswith(ICE_SCHEMES):
        raise TurnConfigError(f"--turn-url {url!r} must start with turn:, turns: or stun:")
    rest = url.split(":", 1)[1]
    if rest.startswith("//"):
        raise TurnConfigError(f"--turn-url {url!r}: write turn:HOST:PORT, without //")
    hostport, _, query = rest.partition("?")
    host, port = hostport, ""
    if hostport.startswith("["):  # [IPv6]:port
        host, _, tail = hostport[1:].partition("]")
        port = tail[1:] if tail.startswith(":") else tail
    elif hostport.count(":") == 1:
        host, port = hostport.split(":")
    if not host or any(ch.isspace() or ch in "/@" for ch in host):
        raise TurnConfigError(f"--turn-url {url!r} has no valid host")
    if port and (not port.isdigit() or not 0 < int(port) < 65536):
        raise TurnConfigError(f"--turn-url {url!r}: the port must be 1-65535")
    if query:
        params = parse_qs(query, keep_blank_values=True)
        if set(params) != {"transport"} or params["transport"][0] not in ("udp", "tcp"):
            raise TurnConfigError(f"--turn-url {url!r}: only ?transport=udp or ?transport=tcp")
        if url.startswith(("stun:", "stuns:")):
            raise TurnConfigError(f"--turn-url {url!r}: stun: URLs take no ?transport")
    return url


def read_secret(path: Path) -> str:
    """The first line of a secret file, or TurnConfigError naming the problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TurnConfigError(f"--turn-secret-file {path}: cannot read it ({exc})") from None
    lines = text.splitlines()
    secret = lines[0].strip() if lines else ""
    if not secret:
        raise TurnConfigError(f"--turn-secret-file {path} is empty")
    return secret


@dataclass(frozen=True)
class TurnIssuer:
    """Makes the ICE server list a page receives: the URLs with fresh credentials."""

    urls: tuple[str, ...]
    secret: str
    ttl: float = 3600.0
    relay_only: bool = False

    @classmethod
    def build(
        cls, urls: list[str], secret: str, ttl: float, relay_only: bool = False
    ) -> TurnIssuer | None:
        """Check the options together; None when no URL is given (then no ICE servers)."""
        if not urls:
            if secret:
                raise TurnConfigError("a TURN secret needs --turn-url")
            if relay_only:
                raise TurnConfigError("--turn-relay-only needs --turn-url")
            return None
        checked = tuple(check_ice_url(u) for u in urls)
        turn = [u for u in checked if u.startswith(TURN_SCHEMES)]
        if turn and not secret:
            raise TurnConfigError(
                "turn: URLs need the shared secret: --turn-secret-file PATH (or --turn-secret)"
            )
        if relay_only and not turn:
            raise TurnConfigError("--turn-relay-only needs a turn: or turns: URL")
        if not MIN_TTL <= ttl <= MAX_TTL:
            raise TurnConfigError(f"--turn-ttl must be {MIN_TTL:.0f}-{MAX_TTL:.0f} seconds")
        return cls(checked, secret, ttl, relay_only)

    def ice_servers(self, user: str, now: float | None = None) -> list[dict[str, Any]]:
        """``RTCIceServer`` dictionaries for ``user``, valid for ``ttl`` seconds from ``now``."""
        servers: list[dict[str, Any]] = []
        stun = [u for u in self.urls if not u.startswith(TURN_SCHEMES)]
        turn = [u for u in self.urls if u.startswith(TURN_SCHEMES)]
        if stun:
            servers.append({"urls": stun})
        if turn:
            expiry = int((time.time() if now is None else now) + self.ttl)
            username = f"{expiry}:{user}"
            secret = credential(self.secret, username)
            servers.append({"urls": turn, "username": username, "credential": secret})
        return servers

    def joined_fields(self, user: str) -> dict[str, Any]:
        """What the ``joined`` frame carries: the ICE servers and, if set, the relay-only policy."""
        fields: dict[str, Any] = {"iceServers": self.ice_servers(user)}
        if self.relay_only:
            fields["iceTransportPolicy"] = "relay"
        return fields
