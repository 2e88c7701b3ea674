"""The random bot of every game: a uniform pick among the legal actions (for fuzzing)."""

from __future__ import annotations

import random
from typing import Any

from engine.core.model import Action, Kind, Knowledge, Rules

RACE_CHANCE = 0.25
"""How often the bot acts when it may (a real-time RACE moment); otherwise it lets it pass."""


class RandomBot:
    """Chooses uniformly among ``legal_actions`` with its own seeded generator; at a RACE it acts
    only now and then (``race_chance``), and None lets the moment pass. A step game's actions are
    read through ``legal_choices`` (the same list; a game may build only the one picked)."""

    def __init__(self, seed: int = 0, race_chance: float = RACE_CHANCE) -> None:
        self.rng = random.Random(seed)
        self.race_chance = race_chance

    def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge
    ) -> Action | None:
        """A legal action for ``seat``; raises ``ValueError`` if it must move and cannot."""
        actions = rules.legal_choices(state, seat, knowledge)
        if rules.decision(state).kind == Kind.RACE:
            if not actions or self.rng.random() >= self.race_chance:
                return None
            return self.rng.choice(actions)
        if not actions:
            raise ValueError(f"no legal action for seat {seat}")
        return self.rng.choice(actions)
