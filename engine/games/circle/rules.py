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

from collections.abc import Mapping
from typing import Any

from engine.core.model import JSON, Action, Decision, IllegalAction, Kind, Knowledge, Rules

from . import flow, plays
from .cards import Catalog, load_catalog
from .state import State, clone, new_state
from .view import build_view

MIN_SEATS, MAX_SEATS = 3, 8


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class CircleRules(Rules[State]):
    """The rules of «Волшебный круг»; the state is a plain JSON dict (see ``state``)."""

    game_id = "circle"

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.cat = catalog or load_catalog()

    # ----- set-up --------------------------------------------------------------------------

    def hidden_decks(self, config: Mapping[str, JSON]) -> dict[str, list[str]]:
        return {"actions": self.cat.action_deck()}

    def new_game(self, config: Mapping[str, JSON]) -> State:
        n = config.get("seats", 4)
        if not _int(n) or not MIN_SEATS <= n <= MAX_SEATS:
            raise IllegalAction(f"в «Волшебном круге» от {MIN_SEATS} до {MAX_SEATS} игроков")
        names = config.get("names") or [f"Игрок {i + 1}" for i in range(n)]
        if not isinstance(names, list) or len(names) != n:
            raise IllegalAction("names: по имени на каждое место")
        if not all(isinstance(x, str) for x in names):
            raise IllegalAction("names: строки")
        first = config.get("first", 0)
        if not _int(first) or not 0 <= first < n:
            raise IllegalAction("first: номер места с тотемом")
        g = new_state(self.cat, n, names, first)
        flow.advance(self.cat, g)
        return g

    # ----- the contract --------------------------------------------------------------------

    def decision(self, state: State) -> Decision:
        need = state["need"]
        kind = need["kind"]
        if kind == "chance":
            return Decision(Kind.CHANCE, phase=need["phase"], chance_range=need["range"])
        if kind == "race":
            return Decision(Kind.RACE, seats=tuple(need["seats"]), phase=need["phase"])
        if kind == "reveal":
            return Decision(
                Kind.REVEAL, phase=need["phase"], slots=tuple(need["slots"]), deck="actions"
            )
        if kind == "reshuffle":
            return Decision(
                Kind.RESHUFFLE, phase=need["phase"], slots=tuple(need["slots"]), deck="actions"
            )
        return Decision(Kind.TERMINAL)

    def visible_slots(self, state: State, seat: int) -> frozenset[int]:
        if not 0 <= seat < state["n"]:
            return frozenset()
        return frozenset(state["hands"][seat])

    def legal_actions(self, state: State, seat: int, knowledge: Knowledge) -> list[Action]:
        need = state["need"]
        if need["kind"] != "race" or not 0 <= seat < state["n"] or not state["alive"][seat]:
            return []
        step = state["spell"]["step"]
        out: list[Action] = []
        for slot in state["hands"][seat]:
            card = knowledge.cards.get(slot)
            if card not in self.cat.actions:
                continue
            for target in plays.targets(self.cat, state, seat, card):
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

    def apply(self, state: State, action: Action) -> State:
        if state["need"]["kind"] == "terminal":
            raise IllegalAction("партия окончена")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("ход — объект с полем type")
        try:
            return self._apply(state, action)
        except IllegalAction:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise IllegalAction(f"неверный ход: {exc!r}") from exc

    def _apply(self, state: State, action: Action) -> State:
        need = state["need"]
        kind = action["type"]
        g = clone(state)
        if kind == "chance":
            value: Any = action.get("value")
            if need["kind"] != "chance" or not _int(value) or not 0 <= value < need["range"]:
                raise IllegalAction("случайность сейчас не нужна или вне диапазона")
            flow.take_spell(self.cat, g, value)
        elif kind == "reveal":
            self._check_reveal(need, action)
            flow.revealed(g, {str(k): v for k, v in action["cards"].items()})
        elif kind == "reshuffled":
            if need["kind"] != "reshuffle" or action.get("slots") != need["slots"]:
                raise IllegalAction("перемешивание не тех карт")
            flow.reshuffled(g, list(need["slots"]))
        elif kind == "settle":
            if need["kind"] != "race":
                raise IllegalAction("сейчас нет переполоха")
            flow.settle(self.cat, g)
        elif kind == "play":
            seat, slot, card, target = self._check_play(state, action)
            if not plays.play(self.cat, g, seat, slot, card, target):
                g["stage"] = "end"
        else:
            raise IllegalAction(f"неизвестный ход {kind!r}")
        flow.advance(self.cat, g)
        return g

    def _check_reveal(self, need: dict[str, Any], action: Action) -> None:
        cards = action.get("cards")
        if need["kind"] != "reveal" or not isinstance(cards, dict):
            raise IllegalAction("сейчас ничего не вскрывается")
        if sorted(str(s) for s in need["slots"]) != sorted(str(k) for k in cards):
            raise IllegalAction("вскрыты не те карты")
        if not all(isinstance(v, str) and v in self.cat.actions for v in cards.values()):
            raise IllegalAction("вскрыта неизвестная карта")

    def _check_play(self, state: State, action: Action) -> tuple[int, int, str, int | None]:
        """The checked ``(seat, slot, card, target)`` of a play, or ``IllegalAction``."""
        if state["need"]["kind"] != "race":
            raise IllegalAction("действия играются только в переполохе")
        seat: Any = action.get("seat")
        slot: Any = action.get("slot")
        step: Any = action.get("step")
        if not _int(seat) or not 0 <= seat < state["n"] or not state["alive"][seat]:
            raise IllegalAction("играет только живой игрок")
        if not _int(slot) or slot not in state["hands"][seat]:
            raise IllegalAction("этой карты нет в руке")
        flying = state["spell"]
        # a move decided on an older step still lands unless the spell has really moved since
        # (ЩИТ and ПОРЫВ raise the step but leave the spell where it is)
        if not _int(step) or not flying.get("moved", 0) <= step <= flying["step"]:
            raise IllegalAction("заклинание уже сместилось: действие опоздало")
        opened = action.get("open")
        if not (isinstance(opened, list) and len(opened) == 1 and isinstance(opened[0], dict)):
            raise IllegalAction("карта должна быть открыта (open)")
        card = opened[0].get("card")
        if (
            opened[0].get("slot") != slot
            or not isinstance(card, str)
            or card not in self.cat.actions
        ):
            raise IllegalAction("открытая карта не совпадает с разыгранной")
        target = action.get("target")
        allowed = plays.targets(self.cat, state, seat, card)
        if target not in allowed or (target is not None and not _int(target)):
            raise IllegalAction("эту карту нельзя так сыграть сейчас")
        return seat, slot, str(card), target

    def view(self, state: State, knowledge: Knowledge) -> JSON:
        legal = (
            [] if knowledge.seat is None else self.legal_actions(state, knowledge.seat, knowledge)
        )
        return build_view(self.cat, state, knowledge, legal)

    def to_json(self, state: State) -> JSON:
        return state
