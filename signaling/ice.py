"""Loopback ICE candidates for aiortc.

aioice's ``get_host_addresses`` skips ``127.0.0.1`` and ``::1``, so on a loopback-only host
(a test network namespace with only ``lo`` up) aiortc gathers no candidate at all and never
connects. aiortc offers no setting for host addresses, so this module wraps that one function:
in ``"auto"`` mode 127.0.0.1 is added only when no other address was found; in ``"always"``
mode it is always added; ``"never"`` restores aioice's behaviour.
"""

from __future__ import annotations

from typing import Literal

import aioice.ice

LoopbackMode = Literal["auto", "always", "never"]
LOOPBACK_V4 = "127.0.0.1"

_original = aioice.ice.get_host_addresses
_mode: LoopbackMode = "auto"


def _host_addresses(use_ipv4: bool, use_ipv6: bool) -> list[str]:
    """aioice's host addresses, plus 127.0.0.1 according to the mode."""
    addresses = list(_original(use_ipv4, use_ipv6))
    if not use_ipv4 or _mode == "never" or LOOPBACK_V4 in addresses:
        return addresses
    if _mode == "always" or not addresses:
        addresses.append(LOOPBACK_V4)
    return addresses


def use_loopback_candidates(mode: LoopbackMode = "auto") -> None:
    """Install the wrapper (idempotent) and set when 127.0.0.1 is gathered."""
    global _mode
    _mode = mode
    aioice.ice.get_host_addresses = _host_addresses


def host_addresses() -> list[str]:
    """The IPv4 addresses aiortc will gather with the current mode."""
    result: list[str] = aioice.ice.get_host_addresses(use_ipv4=True, use_ipv6=False)
    return result
