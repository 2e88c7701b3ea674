"""The games, and the registry that finds a game's rules by its id."""

from __future__ import annotations

import importlib
from typing import Any

from engine.core.model import Rules

RULES: dict[str, str] = {
    "toy": "engine.games.toy:ToyRules",
    "rumble": "engine.games.rumble.rules:RumbleRules",
    "nevermore": "engine.games.nevermore.rules:NevermoreRules",
    "circle": "engine.games.circle.rules:CircleRules",
}


BOTS: dict[str, str] = {
    "rumble": "engine.games.rumble.bot:HeuristicBot",
    "nevermore": "engine.games.nevermore.bot:HeuristicBot",
    "circle": "engine.games.circle.bot:HeuristicBot",
}


def _load(path: str) -> Any:
    module_name, _, name = path.partition(":")
    return getattr(importlib.import_module(module_name), name)


def heuristic_bot(game_id: str, seed: int = 0) -> Any | None:
    """The game's heuristic bot (``choose(rules, state, seat, knowledge)``), or None."""
    return _load(BOTS[game_id])(seed) if game_id in BOTS else None


def rules_for(game_id: str) -> Rules[Any]:
    """A fresh rules object for ``game_id``; ``KeyError`` for an unknown game."""
    rules: Rules[Any] = _load(RULES[game_id])()
    return rules
