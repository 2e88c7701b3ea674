"""A heuristic «Схватка» bot that sees only its own view: hand, public table, its secrets."""

from __future__ import annotations

import random
from typing import Any

from engine.core.model import Action, Knowledge, Rules

from .cards import WILD, Op
from .rules import RumbleRules


def _value(ops: list[Op]) -> float:
    """A rough worth of an effect: damage and healing count, power rolls count the middle band."""
    total = 0.0
    for op in ops:
        kind = op["op"]
        if kind == "damage":
            width = 2.5 if op["target"] in ("all_enemies", "all_players", "neighbours") else 1.0
            total += -op["amount"] if op["target"] == "self" else op["amount"] * width
        elif kind == "heal":
            total += op["amount"] * 0.6
        elif kind == "power":
            width = 2.5 if op["target"] in ("all_enemies", "neighbours") else 1.0
            total += _value(op["bands"][1]) * width
        elif kind in ("infect", "infect_roll", "treasure", "palace", "cure", "transfer"):
            total += 1.0
        elif kind in ("add_card", "copy"):
            total += 2.0
    return total


class HeuristicBot:
    """Plays sensible spells (full, one school, boosted) and sensible answers."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge) -> Action:
        assert isinstance(rules, RumbleRules)
        actions = rules.legal_actions(state, seat, knowledge)
        if not actions:
            raise ValueError(f"no legal action for seat {seat}")
        need = state["need"]
        phase = need.get("phase")
        g = rules.current(state)
        if phase == "assembly":
            return max(actions, key=lambda a: self.seal_score(rules, a, knowledge))
        if phase == "absorb":
            hit = need.get("hit", 0)
            if hit >= 4 or hit >= g["life"][seat]:
                return actions[-1]
            return actions[0]
        if phase == "target":
            return min(actions, key=lambda a: (g["life"][a["target"]], a["target"]))
        if phase == "drop":
            return min(actions, key=lambda a: self.card_worth(rules, knowledge.cards[a["slot"]]))
        if phase == "surprise":
            return actions[-1]
        if phase in ("cure", "transfer"):  # get rid of the disease that hurts most
            return max(actions, key=lambda a: self.disease_harm(rules, a["disease"]))
        if phase == "treasure":
            hand = g["hand"][seat]
            uses = [a for a in actions if a.get("use") and len(hand) - len(a["slots"]) >= 3]
            if uses:
                return min(
                    uses,
                    key=lambda a: sum(
                        self.card_worth(rules, knowledge.cards.get(s, WILD)) for s in a["slots"]
                    ),
                )
            return actions[0]
        return actions[0]

    def disease_harm(self, rules: RumbleRules, kind: str) -> float:
        card = rules.cat.diseases[kind]
        harm = 0.0 if card.get("sign") else 0.5
        harm += 2.0 if card.get("end_turn") else 0.0
        harm += 1.5 if card.get("special") in ("hepatitis", "warts") else 0.0
        return harm

    def card_worth(self, rules: RumbleRules, card_id: str) -> float:
        if card_id == WILD:
            return 3.0
        card = rules.cat.spells[card_id]
        return _value(card["effect"]) + (1.0 if card.get("creature") else 0.0)

    def seal_score(self, rules: RumbleRules, action: Action, knowledge: Knowledge) -> float:
        items = action["secret"]["items"][:-1]
        cards = [knowledge.cards[i["slot"]] for i in items]
        schools = [rules.cat.spells[c].get("school") for c in cards if c != WILD]
        score = 0.0
        for c in cards:
            if c == WILD:
                score += 2.0
                continue
            card = rules.cat.spells[c]
            same = schools.count(card["school"])
            score += _value(card["effect"]) * (1.0 + 0.4 * (same - 1))
            score += 1.5 if card.get("boost") else 0.0
            score += 1.0 if card.get("creature") else 0.0
        return score + self.rng.random() * 0.1


def timer_choice(rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge) -> Action:
    """A policy that always makes the automatic choice a timer would make."""
    assert isinstance(rules, RumbleRules)
    return rules.auto_action(state, seat, knowledge)
