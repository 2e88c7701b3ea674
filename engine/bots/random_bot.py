"""A random bot for any game: a uniform pick among the legal actions (for fuzzing)."""

from __future__ import annotations

import random
from typing import Any

from engine.core.model import Action, Knowledge, Rules


class RandomBot:
    """Chooses uniformly among ``legal_actions`` with its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge) -> Action:
        """A legal action for ``seat``; raises ``ValueError`` if there is none."""
        actions = rules.legal_actions(state, seat, knowledge)
        if not actions:
            raise ValueError(f"no legal action for seat {seat}")
        return self.rng.choice(actions)
