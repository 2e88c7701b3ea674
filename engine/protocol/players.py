"""Who chooses a seat's moves: a bot policy, or a human through the page (``submit``)."""

from __future__ import annotations

import random
from typing import Any, Protocol

from engine.core.model import Action, Knowledge, Rules


class Player(Protocol):
    """Chooses among legal actions; ``None`` means "not yet" (a human still thinking)."""

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        """Pick one of ``legal`` (or wait)."""
        ...


class FirstLegal:
    """Always the first legal action."""

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        """First of ``legal``."""
        return legal[0] if legal else None


class RandomBot:
    """A uniformly random legal action from its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        """Random element of ``legal``."""
        return self.random.choice(legal) if legal else None


class Waiting:
    """Never chooses: the UI calls ``Peer.submit`` instead (or the timer decides)."""

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        """Always wait."""
        return None
