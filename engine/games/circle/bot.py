"""The heuristic bot of «Волшебный круг» (the random one is ``engine.bots.random_bot``): ``choose``
returns a move, or None to let the moment pass.

It sees only the public state and its own ``Knowledge`` (the cards in its hand). The only player
node is the RACE «переполох»; elsewhere (there are no other player nodes) it returns the first
legal action or raises ``ValueError``.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.model import Action, Kind, Knowledge, Rules

from .rules import CircleRules
from .state import left_of, right_of

DIRECTED = ("wind_left", "wind_right", "wind_any", "mirror")


def _other_node(rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge) -> Action:
    actions = rules.legal_actions(state, seat, knowledge)
    if not actions:
        raise ValueError(f"no legal action for seat {seat}")
    return actions[0]


class HeuristicBot:
    """Blows spells aimed at itself towards the healthiest (then best-armed) player, dispels a
    strong one, shields when it cannot get rid of it, adds a finishing ПОРЫВ; otherwise waits."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge
    ) -> Action | None:
        """The move this seat makes now, or None to wait."""
        assert isinstance(rules, CircleRules)
        if rules.decision(state).kind != Kind.RACE:
            return _other_node(rules, state, seat, knowledge)
        actions = rules.legal_actions(state, seat, knowledge)
        if not actions:
            return None
        cat = rules.cat
        g = state["g"]
        spell = g["spell"]
        by_effect: dict[str, list[Action]] = {}
        for a in actions:
            by_effect.setdefault(cat.effect(knowledge.cards[a["slot"]]), []).append(a)
        life = g["life"]
        if spell["target"] != seat:
            gusts = by_effect.get("gust", [])
            if gusts and spell["power"] + 1 >= life[spell["target"]] > spell["power"]:
                return gusts[0]
            return None
        strong = spell["power"] >= 2 or spell["power"] >= life[seat]
        if strong and "dispel" in by_effect and spell["power"] >= 3 - (life[seat] <= 2):
            return by_effect["dispel"][0]
        moves = [a for e in DIRECTED for a in by_effect.get(e, [])]
        if moves:
            return max(moves, key=lambda a: self.score(rules, state, seat, a, knowledge))
        if strong and "dispel" in by_effect:
            return by_effect["dispel"][0]
        if "shield" in by_effect:
            return by_effect["shield"][0]
        return by_effect["dispel"][0] if "dispel" in by_effect else None

    def score(
        self, rules: CircleRules, state: Any, seat: int, action: Action, knowledge: Knowledge
    ) -> float:
        """How good sending the spell where ``action`` sends it is: the healthiest, best-armed
        victim first; cheap winds before all-direction ones; never back to itself."""
        effect = rules.cat.effect(knowledge.cards[action["slot"]])
        g = state["g"]
        spell = g["spell"]
        current = spell["target"]
        if effect == "wind_left":
            to = left_of(g, current)
        elif effect == "wind_right":
            to = right_of(g, current)
        elif effect == "mirror":
            to = spell["prev"]
        else:
            to = action["target"]
        if to == seat:
            return -100.0
        cost = {"wind_left": 0.0, "wind_right": 0.0, "mirror": 0.3, "wind_any": 0.6}[effect]
        victim: float = g["life"][to] * 2 + len(g["hands"][to]) * 0.1
        return victim - cost + self.rng.random() * 0.01
