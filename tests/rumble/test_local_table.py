"""``LocalTable`` drives any ``Rules``: a toy game with a hidden deck, a commitment and a die."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import JSON, Action, Decision, IllegalAction, Kind, Knowledge, Rules
from engine.games.rumble import RumbleRules


class HighCard(Rules[dict[str, Any]]):
    """Each seat is dealt one hidden card, secretly commits to keep or swap it, both open, then
    a die adds to the first seat's card. Higher total wins."""

    game_id = "highcard"

    def new_game(self, config: Mapping[str, JSON]) -> dict[str, Any]:
        return {"hand": [0, 1], "committed": [None, None], "opened": {}, "bonus": None}

    def hidden_decks(self, config: Mapping[str, JSON]) -> dict[str, list[str]]:
        return {"cards": ["c1", "c2", "c3", "c4"]}

    def visible_slots(self, state: dict[str, Any], seat: int) -> frozenset[int]:
        return frozenset({state["hand"][seat]})

    def decision(self, state: dict[str, Any]) -> Decision:
        pending = tuple(s for s in (0, 1) if state["committed"][s] is None)
        if pending:
            return Decision(Kind.SIMULTANEOUS, seats=pending, phase="commit")
        closed = tuple(s for s in (0, 1) if str(s) not in state["opened"])
        if closed:
            return Decision(Kind.MOVE, seats=closed[:1], phase="open")
        if state["bonus"] is None:
            return Decision(Kind.CHANCE, phase="bonus", chance_range=6)
        return Decision(Kind.TERMINAL)

    def legal_actions(self, state: dict[str, Any], seat: int, knowledge: Knowledge) -> list[Action]:
        phase = self.decision(state).phase
        slot = state["hand"][seat]
        if phase == "commit":
            return [{"type": "keep", "seat": seat, "secret": {"items": [{"slot": slot}]}}]
        if phase == "open":
            card = knowledge.cards[slot]
            return [
                {"type": "open", "seat": seat, "open": [{"index": 0, "slot": slot, "card": card}]}
            ]
        return []

    def apply(self, state: dict[str, Any], action: Action) -> dict[str, Any]:
        new = {**state, "committed": list(state["committed"]), "opened": dict(state["opened"])}
        decision = self.decision(state)
        if decision.kind == Kind.CHANCE:
            new["bonus"] = action["value"] + 1
        elif decision.phase == "commit":
            if action.get("seat") not in decision.seats or "commit" not in action:
                raise IllegalAction("commit expected")
            new["committed"][action["seat"]] = action["commit"]
        else:
            new["opened"][str(action["seat"])] = action["open"][0]["card"]
        return new

    def view(self, state: dict[str, Any], knowledge: Knowledge) -> JSON:
        return state

    def to_json(self, state: dict[str, Any]) -> JSON:
        return state


def first(rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge) -> Action:
    return rules.legal_actions(state, seat, knowledge)[0]


def test_local_table_plays_a_toy_game_with_secrets_reveals_and_dice() -> None:
    rules = HighCard()
    table = LocalTable(
        rules, {"seats": 2}, deck_orders={"cards": ["c3", "c1", "c2", "c4"]}, dice=[4]
    )
    assert table.knowledge[0].cards == {0: "c3"} and table.knowledge[1].cards == {1: "c1"}
    table.play(first)
    assert table.state["opened"] == {"0": "c3", "1": "c1"}
    assert table.state["bonus"] == 4
    assert table.knowledge[0].secrets["commit"] == {"items": [{"slot": 0}]}
    assert all(len(d) == 64 for d in table.state["committed"][0])


def test_local_table_refuses_an_opening_that_differs_from_the_commitment() -> None:
    rules = HighCard()
    table = LocalTable(rules, {"seats": 2}, seed=1)
    table.step(first)
    table.step(first)

    def liar(rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge) -> Action:
        other = 1 - seat
        return {
            "type": "open",
            "seat": seat,
            "open": [{"index": 0, "slot": other, "card": table.slot_card[other]}],
        }

    with pytest.raises(IllegalAction):
        table.step(liar)


def test_seeded_shuffles_repeat_and_differ() -> None:
    a = LocalTable(HighCard(), {"seats": 2}, seed=5).slot_card
    b = LocalTable(HighCard(), {"seats": 2}, seed=5).slot_card
    orders = {
        tuple(LocalTable(HighCard(), {"seats": 2}, seed=s).slot_card.values()) for s in range(20)
    }
    assert a == b and len(orders) > 1
    with pytest.raises(ValueError):
        LocalTable(HighCard(), {"seats": 2}, deck_orders={"cards": ["c1", "c1", "c2", "c3"]})


def test_each_seat_is_dealt_what_it_sees_as_its_hand_changes() -> None:
    """«Схватка» tells the table its hands seat by seat (``visible_key``) and the table delivers
    only to the seats whose hand changed: after every step a full delivery adds nothing."""
    rules = RumbleRules()
    for seats, seed in ((4, 1), (6, 2)):
        table = LocalTable(rules, {"seats": seats}, seed=seed)
        bots = {s: RandomBot(seed + s).choose for s in range(seats)}
        while table.step(bots):
            before = {seat: dict(know.cards) for seat, know in table.knowledge.items()}
            table.sync()
            assert {seat: know.cards for seat, know in table.knowledge.items()} == before
            for seat in range(seats):
                assert rules.visible_slots(table.state, seat) <= before[seat].keys()
