"""The games, and the registry that finds a game's rules by its id."""

from __future__ import annotations

import importlib
from typing import Any

from engine.core.model import Rules

RULES: dict[str, str] = {
    "toy": "engine.core.toy:ToyRules",
    "rumble": "engine.games.rumble.rules:RumbleRules",
}


def rules_for(game_id: str) -> Rules[Any]:
    """A fresh rules object for ``game_id``; ``KeyError`` for an unknown game."""
    module_name, _, class_name = RULES[game_id].partition(":")
    rules: Rules[Any] = getattr(importlib.import_module(module_name), class_name)()
    return rules
