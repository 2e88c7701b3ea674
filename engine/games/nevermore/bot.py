"""The heuristic bot of «Невермор» (the random one is ``engine.bots.random_bot``); it sees only
the bot's own ``Knowledge`` (its hand, magic cards and sealed choices) and the public state."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.core.game import StepRules
from engine.core.model import Action, Knowledge, Rules

from .table import G, humans

GOOD_PLAYS = {
    "add_healing",
    "add_radiance",
    "add_victory",
    "add_attack",
    "add_raven",
    "empower",
    "foretell",
    "bolster",
    "retribution",
    "blooding",
    "withering",
    "dominate",
    "enrage",
    "syphon",
    "darkening",
    "brilliance",
    "tax",
}


class HeuristicBot:
    """Keeps its strongest suit, passes ravens and odd cards, hits the leader, plays good magic."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # deterministic; the seed is accepted like every game's heuristic bot

    def choose(self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge) -> Action:
        actions = rules.legal_actions(state, seat, knowledge)
        if not actions:
            raise ValueError(f"no legal action for seat {seat}")
        assert isinstance(rules, StepRules)
        phase = state["need"]["phase"]
        state = rules.runner.peek(state)  # the game data now, with its pending need
        cards = knowledge.cards
        if phase == "pass_commit":
            return max(actions, key=lambda a: self.keep_value(state, seat, cards, a))
        if phase == "seal":
            return max(actions, key=lambda a: self.seal_value(cards, a))
        if phase == "window":
            for a in actions:
                cid = cards.get(a.get("slot", -1), "")
                if cid in GOOD_PLAYS or (cid == "heal" and state["hp"][seat] <= 2):
                    return a
            return actions[0]
        if phase == "choose":
            return self.pick(state, seat, cards, actions)
        return actions[0]

    @staticmethod
    def keep_value(state: G, seat: int, cards: dict[int, str], action: Action) -> float:
        passed = {item["slot"] for item in action["secret"]["items"]}
        kept = [cards.get(s, "") for s in state["hand"][seat] if s not in passed]
        counts = Counter(kept)
        ravens = counts.pop("raven", 0)
        best = max(counts.values(), default=0)
        raven_score = -1.5 * ravens if ravens <= 2 else 2.0 * ravens
        return best * 2 + len(counts) * -0.3 + raven_score

    @staticmethod
    def seal_value(cards: dict[int, str], action: Action) -> float:
        items = action["secret"]["items"]
        counts = Counter(cards.get(i["slot"], "") for i in items if "slot" in i)
        doomed = Counter(cards.get(i["slot"], "") for i in items if i.get("doom"))
        return -sum(counts[s] * k for s, k in doomed.items())

    @staticmethod
    def pick(state: G, seat: int, cards: dict[int, str], actions: list[Action]) -> Action:
        need = state["need"]
        what = need.get("what") if need else None
        picks = [a["pick"] for a in actions]
        if what == "peck":
            return next(a for a in actions if a["pick"] is True)
        if what == "attack":
            if "all" in picks and state["vp"][seat] >= 4:
                return next(a for a in actions if a["pick"] == "all")
            people = [p for p in picks if isinstance(p, int)]
            if people:
                target = max(people, key=lambda s: (state["vp"][s], -state["hp"][s]))
                return next(a for a in actions if a["pick"] == target)
        if what in ("steal", "acquire", "spite", "nightmare") and all(
            isinstance(p, int) for p in picks
        ):
            target = max(picks, key=lambda s: state["vp"][s])
            return next(a for a in actions if a["pick"] == target)
        if what == "discard_pick":
            ravens = [a for a in actions if cards.get(a["pick"]) == "raven"]
            return ravens[0] if ravens else actions[0]
        if what == "add_raven":
            others = [a for a in actions if a["pick"] != seat and a["pick"] in humans(state)]
            return others[0] if others else actions[0]
        return actions[0]
