"""The turn: the spell flies at the totem holder, «переполох», the hit, the totem, the example."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core.local_table import LocalTable
from engine.core.model import IllegalAction, Kind
from engine.games.circle.rules import CircleRules
from engine.games.circle.scenario import run_scenario
from web.ui.phrases import render_log

from .helpers import action, g, hands, play, position, settle, spell, to_race

ROOT = Path(__file__).resolve().parents[2]
RULES = CircleRules()


def test_first_spell_flies_at_the_room_creator_by_default() -> None:
    state = RULES.new_game({"seats": 4})
    decision = RULES.decision(state)
    assert decision.kind == Kind.CHANCE and decision.phase == "spell"
    assert decision.chance_range == 28
    state = RULES.apply(state, {"type": "chance", "value": 0})
    assert state["g"]["spell"]["target"] == 0 and state["g"]["totem"] == 0
    assert RULES.decision(state).kind == Kind.RACE


def test_config_first_gives_the_totem_and_five_life_five_cards() -> None:
    state = RULES.new_game({"seats": 5, "first": 3, "names": list("абвгд")})
    assert state["g"]["totem"] == 3 and state["g"]["life"] == [5] * 5
    assert [len(h) for h in state["g"]["hands"]] == [5] * 5
    state = RULES.apply(state, {"type": "chance", "value": 4})
    assert state["g"]["spell"]["target"] == 3


@pytest.mark.parametrize(
    "config",
    [{"seats": 2}, {"seats": 9}, {"seats": 3, "names": ["a"]}, {"seats": 3, "first": 3}],
)
def test_config_refuses_bad_tables(config: dict[str, object]) -> None:
    with pytest.raises(IllegalAction):
        RULES.new_game(config)


def test_spell_deck_is_public_and_drawn_by_chance_over_what_remains() -> None:
    state = RULES.new_game({"seats": 3})
    remaining = list(state["g"]["spells"])
    after = RULES.apply(state, {"type": "chance", "value": 5})
    assert after["g"]["spell"]["card"] == remaining[5]
    assert len(after["g"]["spells"]) == len(remaining) - 1
    with pytest.raises(IllegalAction):
        RULES.apply(state, {"type": "chance", "value": len(remaining)})


def test_empty_spell_deck_takes_its_discard_back_publicly() -> None:
    full = RULES.cat.spell_deck()
    used = list(full)
    used.remove("meteor")
    run = position(hands(2, 2, 2), spell_discard=used)
    assert g(run)["spells"] == ["meteor"]
    to_race(run)
    run.table.apply({"type": "settle"})  # the meteor hits; the next turn reuses the discard
    while run.table.decision().kind != Kind.CHANCE:
        run.table.step({})
    assert sorted(g(run)["spells"]) == sorted(full)
    assert g(run)["spell_discard"] == []
    assert run.table.decision().chance_range == len(full)


def test_scramble_races_the_living_seats_holding_cards() -> None:
    players = [*hands(2, [], 3), {"alive": False}]
    run = position(players)
    to_race(run)
    decision = run.table.decision()
    assert decision.kind == Kind.RACE and decision.phase == "scramble"
    assert decision.seats == (0, 2)


def test_a_scramble_without_cards_settles_at_once() -> None:
    run = position(hands([], [], []), spells=["stone"])
    to_race(run)
    assert run.table.decision().seats == ()
    run.table.step({})
    assert g(run)["life"][0] == 3


def test_settle_hits_the_target_for_its_power() -> None:
    run = position(hands(1, 1, 1), spells=["meteor"], totem=1)
    to_race(run)
    settle(run)
    assert g(run)["life"] == [5, 2, 5]
    assert g(run)["spell_discard"] == ["meteor"]


def test_actions_are_legal_for_any_living_seat_also_on_spells_aimed_at_others() -> None:
    run = position(hands(1, 1, 1, 1))
    to_race(run)
    for seat in range(4):
        legal = RULES.legal_actions(run.table.state, seat, run.table.knowledge[seat])
        assert len(legal) == 1 and legal[0]["step"] == 0
    play(run, 2, "wind_left")  # seat 2 blows the spell aimed at seat 0
    assert spell(run)["target"] == 1


def test_totem_passes_left_to_the_next_living_seat() -> None:
    players = [*hands(1), {"alive": False}, *hands(1, 1)]
    run = position(players, spells=["magic_arrow"])
    to_race(run)
    settle(run)
    assert g(run)["totem"] == 2
    assert spell(run)["target"] == 2


def seed_example() -> dict[str, object]:
    data: dict[str, object] = json.loads(
        (ROOT / "seeds/circle/scenarios/01_seed_example.json").read_text("utf-8")
    )
    return data


def test_worked_example_of_the_seed_step_by_step() -> None:
    data = seed_example()
    run = position(data["players"], spells=["fire"])  # type: ignore[arg-type]
    to_race(run)
    assert spell(run)["card"] == "fire" and spell(run)["target"] == 0
    assert spell(run)["power"] == 1
    play(run, 0, "wind_left")  # player 1 → player 2, power unchanged
    assert (spell(run)["target"], spell(run)["power"]) == (1, 1)
    play(run, 1, "wind_left")  # player 2 → player 3, the second change: power 2
    assert (spell(run)["target"], spell(run)["power"]) == (2, 2)
    play(run, 2, "wind_right")  # player 3 blows it twice towards player 1
    assert (spell(run)["target"], spell(run)["power"]) == (1, 2)
    play(run, 2, "wind_right")
    assert (spell(run)["target"], spell(run)["power"]) == (0, 3)
    assert spell(run)["step"] == 4 and spell(run)["changes"] == 4
    before = [len(h) for h in g(run)["hands"]]
    assert before == [2, 1, 2, 4, 6]
    run.table.apply(run.table.public(0, action(run, 0, "dispel"), "scramble"))
    state = g(run)
    assert state["spell"] is None and state["spell_discard"] == ["fire"]
    assert state["life"] == [4, 3, 5, 2, 5]  # nobody harmed
    assert state["totem"] == 1
    assert [len(h) for h in state["hands"]] == [3, 3, 4, 6, 6]
    assert len(state["discard"]) == 5
    draws = [e for e in state["log"] if e["e"] == "draw"]
    assert [(e["seat"], e["count"]) for e in draws] == [(1, 2), (2, 2), (3, 2), (0, 2)]
    assert RULES.decision(run.table.state).kind == Kind.CHANCE


def test_sample_scenario_reproduces_the_seed_example() -> None:
    result = run_scenario(seed_example())
    assert result["totem"] == 1 and result["turn"] == 2
    assert result["hand_sizes"] == [3, 3, 4, 6, 6]
    assert result["life"] == [4, 3, 5, 2, 5]
    assert result["spell_discard"] == ["fire"]
    changes = [
        (e["to"], e["changes"], e["was"], e["power"]) for e in result["log"] if e["e"] == "change"
    ]
    assert (2, 2, 1, 2) in changes and (0, 4, 2, 3) in changes  # events, not sentences
    said = render_log("circle", result["log"], "ru", result["names"])
    assert "ОГОНЬ → Игрок 3 (смена цели №2), сила 1 → 2." in said
    assert "ОГОНЬ → Игрок 1 (смена цели №4), сила 2 → 3." in said
    assert result["unused_plays"] == [] and result["refused"] == []


def test_local_table_opens_the_shown_card_for_the_engine() -> None:
    table = LocalTable(RULES, {"seats": 3}, seed=4)
    table.step({})
    seat = 0
    legal = RULES.legal_actions(table.state, seat, table.knowledge[seat])
    public = table.public(seat, legal[0], "scramble")
    assert "show" not in public
    slot = legal[0]["slot"]
    assert public["open"] == [{"slot": slot, "card": table.slot_card[slot]}]
