"""The shared step runner and ``StepRules``: needs become decisions, inputs are checked against
their need, a resumed step equals a replayed one, and a failing rule is an engine error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from engine.core import runner
from engine.core.game import State, StepRules
from engine.core.model import JSON, Action, EngineError, IllegalAction, Kind, Knowledge
from engine.core.runner import Ask, Ctx, Runner, clone, clone_record, need_decision
from engine.core.shapes import Move, Str


def roll_and_pick(g: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> Ask[None]:
    """Roll a die, let seat 0 pick a side, write both down."""
    die = yield from ctx.die("roll")
    pick = yield from ctx.choose(0, "pick", [{"type": "pick", "seat": 0, "side": s} for s in "ab"])
    g["log"].append(f"{die}{pick['side']}")
    if g["broken"]:
        g["missing"]["key"] += 1  # a rule that fails: KeyError


class Tiny(StepRules):
    game_id = "tiny"

    def __init__(self) -> None:
        self.runner = Runner({"turn": roll_and_pick}, ctx=Ctx(deck="main"))

    def new_game(self, config: Mapping[str, JSON]) -> State:
        g = {"agenda": [{"k": "turn"}, {"k": "turn"}], "log": [], "broken": bool(config.get("b"))}
        g["missing"] = {}
        return self.runner.start(g)

    def legal_actions(self, state: State, seat: int, knowledge: Knowledge) -> list[Action]:
        return list(state["need"].get("options", []))

    def view(self, state: State, knowledge: Knowledge) -> JSON:
        return {"log": self.data(state)["log"]}


def test_needs_map_to_decisions() -> None:
    d = need_decision({"kind": "reveal", "slots": [3, 1], "deck": "main", "phase": "p"})
    assert (d.kind, d.slots, d.deck, d.phase) == (Kind.REVEAL, (3, 1), "main", "p")
    d = need_decision({"kind": "race", "seats": [0, 2], "phase": "r"})
    assert (d.kind, d.seats) == (Kind.RACE, (0, 2))
    assert need_decision({"kind": "terminal"}).kind == Kind.TERMINAL
    assert need_decision({"kind": "chance", "range": 4, "phase": "c"}).chance_range == 4


def test_many_reveals_do_not_crowd_the_other_needs_out_of_the_kept_decisions() -> None:
    """A page that plays game after game meets ever new reveals (their slots differ); the
    decisions of the other needs are still made once each after any number of them."""
    for n in range(runner.DECISIONS_KEPT + 50):
        slots = [n % 97, n // 97]
        need_decision({"kind": "reveal", "slots": slots, "deck": "main", "phase": "flood"})
    move = {"kind": "move", "seats": [0, 3], "phase": "after the flood"}
    assert need_decision(move) is need_decision(dict(move))
    reveal = {"kind": "reveal", "slots": [5, 7], "deck": "main", "phase": "after the flood"}
    assert need_decision(reveal) is need_decision(dict(reveal))
    assert len(runner._SLOT_DECISIONS) <= runner.DECISIONS_KEPT


def test_inputs_are_checked_against_their_need_and_the_state_is_untouched() -> None:
    rules = Tiny()
    state = rules.new_game({})
    assert rules.decision(state).kind == Kind.CHANCE
    for bad in ({"type": "chance", "value": 6}, {"type": "chance", "value": True}, {"x": 1}):
        with pytest.raises(IllegalAction):
            rules.apply(state, bad)
    rolled = rules.apply(state, {"type": "chance", "value": 2})
    assert state["inputs"] == [] and rolled["inputs"] == [{"type": "chance", "value": 2}]
    with pytest.raises(IllegalAction, match="такого варианта нет"):
        rules.apply(rolled, {"type": "pick", "seat": 0, "side": "c"})
    with pytest.raises(IllegalAction, match="не это место"):
        rules.apply(rolled, {"type": "pick", "seat": 1, "side": "a"})


def test_a_resumed_step_and_a_replayed_one_give_the_same_state() -> None:
    rules = Tiny()
    state = rules.apply(rules.new_game({}), {"type": "chance", "value": 2})
    live = rules.apply(state, {"type": "pick", "seat": 0, "side": "b"})
    copy = {k: v for k, v in state.items()}  # another object: no live step, a replay
    replayed = rules.apply(copy, {"type": "pick", "seat": 0, "side": "b"})
    assert live == replayed and live["g"]["log"] == ["3b"]
    assert rules.view(rules.apply(replayed, {"type": "chance", "value": 0}), Knowledge(0)) == {
        "log": ["3b"]
    }


def test_a_failing_rule_is_an_engine_error_with_its_position_not_an_illegal_move() -> None:
    rules = Tiny()
    state = rules.apply(rules.new_game({"b": True}), {"type": "chance", "value": 0})
    move = {"type": "pick", "seat": 0, "side": "a"}
    with pytest.raises(EngineError) as caught:
        rules.apply(state, move)
    assert not isinstance(caught.value, IllegalAction)
    position = caught.value.position
    assert position["game"] == "tiny" and position["phase"] == "pick"
    assert position["state"] == rules.state_hash(state) and '"side":"a"' in position["action"]


def test_a_free_form_move_is_checked_against_its_declared_shape() -> None:
    """A move without listed options is checked against the shape the game declares for its
    phase: a missing field is the mover's; a phase with no shape, or a step that fails on a move
    of its shape, is the engine's."""

    def free(g: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> Ask[None]:
        action = yield from ctx.ask({"kind": "move", "seats": [0], "phase": "free"})
        g["log"].append(action["word"])
        g["log"].append(g["words"][action["word"]])  # a rule that fails on an unknown word

    rules = Tiny()
    rules.runner = Runner({"turn": free})
    state = rules.runner.start({"agenda": [{"k": "turn"}], "log": [], "words": {"да": 1}})
    with pytest.raises(EngineError, match="нет объявленной формы"):
        rules.apply(state, {"type": "say", "seat": 0, "word": "да"})
    rules.shapes = {"free": {"say": Move({"word": Str()})}}
    with pytest.raises(IllegalAction, match="нет поля word"):
        rules.apply(state, {"type": "say", "seat": 0})
    with pytest.raises(IllegalAction, match="лишнее поле"):
        rules.apply(state, {"type": "say", "seat": 0, "word": "да", "more": 1})
    assert rules.apply(state, {"type": "say", "seat": 0, "word": "да"})["g"]["log"] == ["да", 1]
    with pytest.raises(EngineError) as caught:
        rules.apply(state, {"type": "say", "seat": 0, "word": "нет"})
    assert caught.value.position["phase"] == "free"


def test_the_end_refuses_every_input() -> None:
    rules = Tiny()
    state = rules.new_game({})
    for _ in range(2):
        state = rules.apply(state, {"type": "chance", "value": 0})
        state = rules.apply(state, {"type": "pick", "seat": 0, "side": "a"})
    assert rules.decision(state).kind == Kind.TERMINAL
    with pytest.raises(IllegalAction, match="окончена"):
        rules.apply(state, {"type": "chance", "value": 0})


def test_a_moves_copy_shares_nothing_it_could_change() -> None:
    moves = [
        {"type": "seal", "seat": 0, "commit": ["a1", "b2"]},
        {"type": "open", "seat": 1, "open": [{"index": 0, "slot": 4, "card": "x", "as": "q"}]},
        {"type": "reveal", "cards": {"32": "spark", "7": "storm"}},
        {"type": "drop", "seat": 3, "open": [], "note": None, "ok": True},
        {"type": "deep", "nested": [[1, 2], {"a": [3]}], "keys": {1: "int key"}},
    ]
    for move in moves:
        copy = clone_record(move)
        assert copy == move and copy is not move
        assert copy == clone(move)  # the same as a deep copy
        for key, value in move.items():
            if isinstance(value, (list, dict)):
                assert copy[key] is not value
                inner = value.values() if isinstance(value, dict) else value
                copied = copy[key].values() if isinstance(value, dict) else copy[key]
                for a, b in zip(inner, copied, strict=True):
                    assert not isinstance(a, (list, dict)) or a is not b
    with pytest.raises(ValueError):
        clone_record({"type": "x", "items": [{"a": object()}]})
    with pytest.raises(ValueError):
        clone_record({"type": "x", "items": [object()]})
