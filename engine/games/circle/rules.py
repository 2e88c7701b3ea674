"""``CircleRules``: «Волшебный круг» behind the ``engine.core.model.Rules`` contract.

Config: ``{"seats": 3..8, "names": [...], "first": seat}`` (``first``: the totem holder of the
first turn, default 0 — the room's creator). Only the action deck is hidden (``"actions"``); the
spell deck is public and drawn with a CHANCE over the remaining spells.

Nodes (``decision``): CHANCE ``spell``; RACE ``scramble`` (living seats holding cards); REVEAL
``out`` (hands of knocked-out seats); RESHUFFLE ``reshuffle`` (the action discard, deck
``actions``); TERMINAL.

The one player move: ``{"type": "play", "seat": s, "slot": x, "show": [x], "step": k}`` with
``"target": t`` for ВЕТЕР (во все стороны). ``step`` is the flying spell's step counter when the
player decided; a move made on an older step is refused if the spell has changed its target since
(``spell["moved"]``, the step of the last change of target); ЩИТ and ПОРЫВ leave it in place.
The table replaces ``show`` by ``"open": [{"slot": x, "card": id}]``, and only that opening names
the card. The table settles the
scramble with ``{"type": "settle"}``: the spell hits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import cast

from engine.core.game import State, StepRules
from engine.core.model import JSON, Action, IllegalAction, Knowledge
from engine.core.runner import Ctx, G, Runner

from . import flow, plays
from .cards import Catalog, load_catalog
from .shapes import SHAPES
from .state import clone, new_state
from .view import build_view

MIN_SEATS, MAX_SEATS = 3, 8


class CircleRules(StepRules):
    """The rules of «Волшебный круг» on the step runner (data: ``state``, steps: ``flow``)."""

    game_id = "circle"
    shapes = SHAPES

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.cat = catalog or load_catalog()
        # the runner handles any game's data (``G``); this game's is ``state.State``
        after = cast(Callable[[G], None], flow.after)
        copy = cast(Callable[[G], G], clone)
        self.runner = Runner(flow.steps(self.cat), after, copy=copy, ctx=Ctx(deck="actions"))

    # ----- set-up --------------------------------------------------------------------------

    def hidden_decks(self, config: Mapping[str, JSON]) -> dict[str, list[str]]:
        return {"actions": self.cat.action_deck()}

    def new_game(self, config: Mapping[str, JSON]) -> State:
        n = config.get("seats", 4)
        if not plays.is_int(n) or not MIN_SEATS <= n <= MAX_SEATS:
            raise IllegalAction(f"в «Волшебном круге» от {MIN_SEATS} до {MAX_SEATS} игроков")
        names = config.get("names") or [f"Игрок {i + 1}" for i in range(n)]
        if not isinstance(names, list) or len(names) != n:
            raise IllegalAction("names: по имени на каждое место")
        if not all(isinstance(x, str) for x in names):
            raise IllegalAction("names: строки")
        first = config.get("first", 0)
        if not plays.is_int(first) or not 0 <= first < n:
            raise IllegalAction("first: номер места с тотемом")
        return self.runner.start(cast(G, new_state(self.cat, n, names, first)))

    # ----- the contract --------------------------------------------------------------------

    def visible_slots(self, state: State, seat: int) -> frozenset[int]:
        g = state["g"]
        if not 0 <= seat < g["n"]:
            return frozenset()
        return frozenset(g["hands"][seat])

    def legal_actions(self, state: State, seat: int, knowledge: Knowledge) -> list[Action]:
        g = state["g"]  # every step asks before it changes anything: ``g`` is the data now
        if state["need"]["kind"] != "race" or not 0 <= seat < g["n"] or not g["alive"][seat]:
            return []
        step = g["spell"]["step"]
        out: list[Action] = []
        for slot in g["hands"][seat]:
            card = knowledge.cards.get(slot)
            if card not in self.cat.actions:
                continue
            for target in plays.targets(self.cat, g, seat, card):
                action: Action = {
                    "type": "play",
                    "seat": seat,
                    "slot": slot,
                    "show": [slot],
                    "step": step,
                }
                if target is not None:
                    action["target"] = target
                out.append(action)
        return out

    def view(self, state: State, knowledge: Knowledge) -> JSON:
        legal = (
            [] if knowledge.seat is None else self.legal_actions(state, knowledge.seat, knowledge)
        )
        return build_view(self.cat, state["g"], state["need"], knowledge, legal)
