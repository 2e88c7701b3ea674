"""Errors that name the peer to blame, and the words for a fault of the rules themselves."""

from __future__ import annotations

from engine.core.model import EngineError


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


def engine_fault(error: EngineError) -> str:
    """Why a table halts when the rules fail (``EngineError``): the engine's fault, with the
    position it failed at; nobody is blamed for it."""
    return f"engine error: {error}"
