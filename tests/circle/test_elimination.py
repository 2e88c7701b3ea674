"""Players knocked out: their hands revealed and discarded; the last one alive wins."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.model import IllegalAction, Kind

from .helpers import g, hands, play, position, to_race


def test_a_knocked_out_hand_is_revealed_then_goes_to_the_action_discard() -> None:
    players = [{"hand": ["gust", "mirror"], "life": 2}, *hands(1, 1)]
    run = position(players, spells=["meteor"])
    to_race(run)
    slots = sorted(g(run)["hands"][0])
    run.table.apply({"type": "settle"})
    decision = run.table.decision()
    assert decision.kind == Kind.REVEAL and decision.deck == "actions"
    assert list(decision.slots) == slots
    assert g(run)["alive"][0] is False
    run.table.step({})
    state = g(run)
    assert state["hands"][0] == []
    assert set(slots) <= set(state["discard"])
    assert {state["known"][str(s)] for s in slots} == {"gust", "mirror"}


def test_a_wrong_reveal_is_refused() -> None:
    players = [{"hand": ["gust"], "life": 1}, *hands(1, 1)]
    run = position(players, spells=["meteor"])
    to_race(run)
    run.table.apply({"type": "settle"})
    slot = g(run)["hands"][0][0]
    with pytest.raises(IllegalAction):
        run.rules.apply(run.table.state, {"type": "reveal", "cards": {str(slot + 1): "gust"}})
    with pytest.raises(IllegalAction):
        run.rules.apply(run.table.state, {"type": "reveal", "cards": {str(slot): "fire"}})


def test_the_last_one_alive_wins() -> None:
    players = [{"hand": [], "life": 1}, *hands(1), {"alive": False}]
    run = position(players, spells=["magic_arrow"])
    to_race(run)
    run.table.apply({"type": "settle"})
    state = g(run)
    assert run.table.decision().kind == Kind.TERMINAL
    assert state["winner"] == 1 and state["result"] == "winner"
    with pytest.raises(IllegalAction):
        run.rules.apply(run.table.state, {"type": "settle"})


def test_all_remaining_drop_at_once_and_nobody_wins() -> None:
    players: list[dict[str, Any]] = [
        {"hand": [], "life": 2},
        {"hand": [], "life": 1},
        {"alive": False},
    ]
    run = position(players, spells=["chain_lightning"])
    to_race(run)
    run.table.apply({"type": "settle"})
    state = g(run)
    assert run.table.decision().kind == Kind.TERMINAL
    assert state["alive"] == [False, False, False]
    assert state["winner"] is None and state["result"] == "nobody"


def test_a_knocked_out_player_is_skipped_by_the_totem_and_the_winds() -> None:
    players = [*hands(1), {"hand": ["gust"], "life": 1}, *hands(["wind_right"], 1)]
    run = position(players, spells=["magic_arrow", "magic_arrow"], totem=1)
    to_race(run)
    run.table.apply({"type": "settle"})
    run.table.step({})  # the reveal of seat 1's hand
    to_race(run)
    state = g(run)
    assert state["alive"][1] is False
    assert state["totem"] == 2 and state["spell"]["target"] == 2
    play(run, 2, "wind_right")
    assert g(run)["spell"]["target"] == 0  # seat 2's right is seat 0 now
