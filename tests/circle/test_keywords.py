"""Every spell keyword as the engine implements it, and a spell without one."""

from __future__ import annotations

import pytest

from engine.core.model import IllegalAction, Kind

from .helpers import action, g, hands, opened, play, position, settle, spell, to_race

WINDS = ["wind_left", "wind_right"] * 3


def test_fan_every_second_change_of_target_adds_one() -> None:
    run = position(hands(WINDS, WINDS, 1), spells=["wildfire"])
    to_race(run)
    powers = []
    for seat in (0, 1, 0, 1):
        play(run, seat, "wind_left" if seat == 0 else "wind_right")
        powers.append(spell(run)["power"])
    assert powers == [2, 3, 3, 4]


def test_grow_every_change_of_target_adds_one() -> None:
    run = position(hands(WINDS, WINDS, 1), spells=["snowball"])
    to_race(run)
    powers = []
    for seat in (0, 1, 0):
        play(run, seat, "wind_left" if seat == 0 else "wind_right")
        powers.append(spell(run)["power"])
    assert powers == [2, 3, 4]
    settle(run)
    assert g(run)["life"][1] == 1


def test_gust_is_not_a_change_of_target_for_growing_spells() -> None:
    run = position(hands(["gust"], 1, 1), spells=["snowball"])
    to_race(run)
    play(run, 0, "gust")
    assert spell(run)["power"] == 2 and spell(run)["changes"] == 0


def test_melt_every_change_lowers_power_and_at_zero_it_melts_harmlessly() -> None:
    run = position(hands(WINDS, WINDS, 1), spells=["ice_block"])
    to_race(run)
    play(run, 0, "wind_left")
    play(run, 1, "wind_right")
    assert spell(run)["power"] == 1
    play(run, 0, "wind_left")
    state = g(run)
    assert state["spell"] is None and state["spell_discard"] == ["ice_block"]
    assert state["life"] == [5, 5, 5]
    assert any(e["e"] == "melt" for e in state["log"])
    assert state["totem"] == 1


def test_chain_hits_both_living_neighbours_for_one() -> None:
    players = [*hands(1, 1, 1, 1), {"alive": False}]
    run = position(players, spells=["chain_lightning"])
    to_race(run)
    settle(run)
    assert g(run)["life"][:4] == [3, 4, 5, 4]  # seat 4 is out: seat 3 is seat 0's right


def test_chain_with_two_players_left_hits_the_other_once() -> None:
    players = [*hands(1, 1), {"alive": False}]
    run = position(players, spells=["spark"])
    to_race(run)
    settle(run)
    assert g(run)["life"][:2] == [4, 4]


def test_burn_takes_one_life_at_the_start_of_the_victims_next_turn() -> None:
    run = position(hands(1, 1, 1), spells=["burning_tar", "magic_arrow", "magic_arrow"])
    to_race(run)
    settle(run)  # seat 0 hit for 1, burned
    assert g(run)["life"][0] == 4 and g(run)["burns"][0] == 1
    settle(run)  # seat 1's turn: the burn waits
    assert g(run)["life"] == [4, 4, 5] and g(run)["burns"][0] == 1
    run.table.apply({"type": "settle"})  # seat 2 is hit; seat 0's turn starts
    state = g(run)
    assert state["life"] == [3, 4, 4] and state["burns"][0] == 0
    assert run.table.decision().kind == Kind.CHANCE and state["totem"] == 0
    kinds = [e["e"] for e in state["log"]]
    assert kinds.index("burned") > kinds.index("totem")  # at the start of seat 0's turn
    assert [e["seat"] for e in state["log"] if e["e"] == "burned"] == [0]


def test_a_burn_that_knocks_out_the_totem_holder_passes_the_totem_on() -> None:
    players = [{"hand": ["wind_left"], "life": 1, "burns": 1}, *hands(1, 1)]
    run = position(players, spells=["magic_arrow"])
    assert run.table.decision().kind == Kind.REVEAL  # seat 0 is out before any spell flies
    to_race(run)
    state = g(run)
    assert state["alive"] == [False, True, True]
    assert state["totem"] == 1 and spell(run)["target"] == 1


def test_drain_heals_whoever_last_sent_the_spell_up_to_five() -> None:
    players = [{"hand": ["wind_left"], "life": 3}, *hands(1, 1)]
    run = position(players, spells=["blood_moon"])
    to_race(run)
    play(run, 0, "wind_left")
    settle(run)
    assert g(run)["life"] == [4, 3, 5]
    run2 = position(hands(["wind_left"], 1, 1), spells=["leech"])
    to_race(run2)
    play(run2, 0, "wind_left")
    settle(run2)
    assert g(run2)["life"] == [5, 4, 5]  # never above five


def test_drain_heals_nobody_when_nobody_sent_it_or_the_sender_is_the_victim() -> None:
    run = position([{"hand": [], "life": 3}, *hands(1, 1)], spells=["leech"])
    to_race(run)
    settle(run)
    assert g(run)["life"] == [2, 5, 5]
    run = position(hands(1, 1, ["wind_left"]), spells=["leech"], totem=1)
    to_race(run)
    play(run, 2, "wind_left")  # from seat 1 to its left: seat 2 sent it at itself
    assert spell(run)["target"] == 2 and spell(run)["sender"] == 2
    settle(run)
    assert g(run)["life"] == [5, 5, 4]


def test_frost_victim_draws_no_cards_at_the_end_of_this_turn() -> None:
    run = position(hands(["wind_left", "wind_left"], 1, 1), spells=["hoarfrost"], totem=2)
    to_race(run)
    play(run, 0, "wind_left")  # an action was played: the others draw
    settle(run)
    state = g(run)
    assert state["life"][0] == 4
    assert [len(h) for h in state["hands"]] == [1, 3, 3]
    assert state["frozen"] == [False, False, False]
    assert any(e["e"] == "frozen" and e["seat"] == 0 for e in state["log"])


def test_relentless_spell_cannot_be_dispelled() -> None:
    run = position(hands(["dispel", "wind_left"], 1, 1), spells=["comet"])
    to_race(run)
    legal = run.rules.legal_actions(run.table.state, 0, run.table.knowledge[0])
    cards = {run.table.slot_card[a["slot"]] for a in legal}
    assert cards == {"wind_left"}
    with pytest.raises(IllegalAction):
        run.rules.apply(run.table.state, opened(run, action(run, 0, "dispel")))
    settle(run)
    assert g(run)["life"][0] == 3


def test_a_spell_without_keyword_just_hits() -> None:
    run = position(hands(WINDS, 1, 1), spells=["magic_arrow"])
    to_race(run)
    play(run, 0, "wind_left")
    play(run, 0, "wind_right")
    assert spell(run)["power"] == 1
    settle(run)
    assert g(run)["life"] == [4, 5, 5] and g(run)["burns"] == [0, 0, 0]


def test_a_neighbours_shield_does_not_absorb_the_chain() -> None:
    run = position(hands(1, ["shield"], 1, 1), spells=["chain_lightning"])
    to_race(run)
    play(run, 1, "shield")
    run.table.apply({"type": "settle"})
    assert g(run)["life"] == [3, 4, 5, 4]
