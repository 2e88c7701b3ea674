"""Bots that play any game through the ``engine.core.model.Rules`` contract.

Every bot — ``random_bot.RandomBot`` for all games, and each game's ``HeuristicBot`` (found by
``engine.games.heuristic_bot``) — has one interface, ``Bot``: ``choose`` returns the move for a
seat now, or None to let a real-time moment pass. It sees only the public state and that seat's
``Knowledge``.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.core.model import Action, Knowledge, Rules


class Bot(Protocol):
    """A player that chooses its own moves (also a ``LocalTable`` policy: ``bot.choose``)."""

    def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge
    ) -> Action | None:
        """The move ``seat`` makes now; None lets a RACE moment pass."""
        ...
