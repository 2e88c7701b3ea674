"""«Горячий камень»: a tiny real-time game for protocol tests of RACE decisions.

Each seat holds two hidden cards (``config["hand"]``). A hot stone sits with a seat; while it is
there, any seat that still holds a card may show one of them to push the stone one seat on
(``step`` names the stone's position the mover saw, so a push on a stone that has already moved is
refused). When nobody has pushed for the countdown, the table settles: whoever holds the stone
loses and the game ends.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from engine.core.model import JSON, Action, Decision, IllegalAction, Kind, Knowledge, Rules

HAND = 2
State = dict[str, Any]


class StoneRules(Rules[State]):
    """Rules of the hot stone; the state is a JSON dict copied on every ``apply``."""

    game_id = "stone"

    def new_game(self, config: Mapping[str, JSON]) -> State:
        seats, hand = int(config.get("seats", 3)), int(config.get("hand", HAND))
        hands = {str(s): [hand * s + i for i in range(hand)] for s in range(seats)}
        return {"seats": seats, "stone": 0, "step": 0, "hands": hands, "shown": [], "loser": None}

    def hidden_decks(self, config: Mapping[str, JSON]) -> dict[str, list[str]]:
        seats, hand = int(config.get("seats", 3)), int(config.get("hand", HAND))
        return {"hand": [f"push{i % 3}" for i in range(hand * seats)]}

    def visible_slots(self, state: State, seat: int) -> frozenset[int]:
        return frozenset(state["hands"].get(str(seat), []))

    def decision(self, state: State) -> Decision:
        if state["loser"] is not None:
            return Decision(Kind.TERMINAL)
        holders = tuple(s for s in range(state["seats"]) if state["hands"][str(s)])
        return Decision(Kind.RACE, seats=holders, phase="scramble")

    def legal_actions(self, state: State, seat: int, knowledge: Knowledge) -> list[Action]:
        if self.decision(state).kind != Kind.RACE:
            return []
        return [
            {"type": "push", "seat": seat, "slot": slot, "show": [slot], "step": state["step"]}
            for slot in state["hands"][str(seat)]
        ]

    def apply(self, state: State, action: Action) -> State:
        if state["loser"] is not None:
            raise IllegalAction("the game is over")
        new = copy.deepcopy(state)
        if action.get("type") == "settle":
            new["loser"] = state["stone"]
            return new
        if action.get("type") != "push":
            raise IllegalAction("unknown move")
        seat, slot = action.get("seat"), action.get("slot")
        if action.get("step") != state["step"]:
            raise IllegalAction("the stone has moved on")
        hand = new["hands"].get(str(seat))
        if hand is None or slot not in hand:
            raise IllegalAction("that card is not in the mover's hand")
        opened = action.get("open")
        if not (isinstance(opened, list) and len(opened) == 1 and opened[0].get("slot") == slot):
            raise IllegalAction("the pushed card must be shown")
        hand.remove(slot)
        new["shown"].append([seat, slot, opened[0]["card"]])
        new["stone"] = (state["stone"] + 1) % state["seats"]
        new["step"] += 1
        return new

    def view(self, state: State, knowledge: Knowledge) -> JSON:
        return {**state, "mine": sorted(knowledge.cards.items())}

    def to_json(self, state: State) -> JSON:
        return state


class PushOnce:
    """Pushes with its first card as soon as it may, once in the whole game."""

    def __init__(self) -> None:
        self.done = False

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        if self.done or not legal:
            return None
        self.done = True
        return legal[0]
