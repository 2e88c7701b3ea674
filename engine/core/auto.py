"""The automatic-choice hook a game offers the table (timers, hurry, absent players)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from engine.core.model import Action, Knowledge


@runtime_checkable
class AutoRules(Protocol):
    """A ``Rules`` that can choose for a seat on its own.

    ``knowledge`` is the seat's own knowledge when its client chooses (its timer ran out, or the
    host hurried it); it is ``None`` when the log chooses for an absent player, so the action must
    need no secret (a game returns a "skip" for a choice that needs the player's hand).
    """

    def auto_action(self, state: Any, seat: int, knowledge: Knowledge | None) -> Action:
        """The automatic choice for ``seat`` now."""
        ...
