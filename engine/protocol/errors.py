"""Errors that name the peer to blame."""

from __future__ import annotations


class ProtocolError(ValueError):
    """Input rejected; ``peer`` is who sent or authored it, ``reason`` says why."""

    def __init__(self, peer: str, reason: str) -> None:
        super().__init__(f"{peer}: {reason}")
        self.peer = peer
        self.reason = reason


class StaleAction(ProtocolError):
    """A move made on a state the log has moved past (another move came first): refused, but in
    real time that is the normal outcome of a race, not a fault."""


class IllegalMove(ProtocolError):
    """The game's rules refuse a move (``Rules.apply`` raised ``IllegalAction``)."""
