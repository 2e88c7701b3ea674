"""Every action card, and the refusals: a stale step, a card not in hand, a wrong opening."""

from __future__ import annotations

import pytest

from engine.core.model import IllegalAction

from .helpers import action, g, hand_cards, hands, opened, play, position, settle, spell, to_race


def test_wind_left_blows_to_the_nearest_living_seat_on_the_left() -> None:
    players = [*hands(["wind_left"]), {"alive": False}, *hands(1, 1)]
    run = position(players)
    to_race(run)
    play(run, 0, "wind_left")
    assert spell(run)["target"] == 2  # seat 1 is out
    assert spell(run)["prev"] == 0 and spell(run)["sender"] == 0


def test_wind_right_blows_to_the_nearest_living_seat_on_the_right() -> None:
    players = [*hands(["wind_right"], 1), {"alive": False}, *hands(1)]
    run = position(players)
    to_race(run)
    play(run, 0, "wind_right")
    assert spell(run)["target"] == 3  # seat 0's right wraps round to seat 3
    play(run, 3, "wind_left")
    assert spell(run)["target"] == 0


def test_wind_all_directions_reaches_any_living_seat_across_the_table() -> None:
    players = [*hands(["wind_all"], 1, 1), {"alive": False}, *hands(1, 1)]
    run = position(players)
    to_race(run)
    legal = run.rules.legal_actions(run.table.state, 0, run.table.knowledge[0])
    assert sorted(a["target"] for a in legal) == [1, 2, 4, 5]
    play(run, 0, "wind_all", target=4)
    assert spell(run)["target"] == 4 and spell(run)["changes"] == 1


@pytest.mark.parametrize("target", [0, 3, 9, None, True])
def test_wind_all_directions_refuses_the_current_a_dead_or_no_target(target: object) -> None:
    players = [*hands(["wind_all"], 1, 1), {"alive": False}]
    run = position(players)
    to_race(run)
    act = action(run, 0, "wind_all")
    act["target"] = target
    with pytest.raises(IllegalAction):
        run.rules.apply(run.table.state, opened(run, act))


def test_a_wind_with_a_target_field_is_refused() -> None:
    run = position(hands(["wind_left"], 1, 1))
    to_race(run)
    with pytest.raises(IllegalAction):
        run.rules.apply(run.table.state, opened(run, action(run, 0, "wind_left", target=2)))


def test_dispel_sends_the_spell_to_the_discard_harming_no_one() -> None:
    run = position(hands(["dispel"], 1, 1), spells=["meteor"])
    to_race(run)
    play(run, 0, "dispel")
    state = g(run)
    assert state["life"] == [5, 5, 5]
    assert state["spell_discard"] == ["meteor"]
    assert any(e["e"] == "dispel" for e in state["log"])
    assert state["totem"] == 1  # the scramble ended, the turn too


def test_dispel_works_on_a_spell_aimed_at_someone_else() -> None:
    run = position(hands(1, ["dispel"], 1), spells=["stone"])
    to_race(run)
    play(run, 1, "dispel")
    assert g(run)["life"] == [5, 5, 5]


def test_shield_absorbs_the_next_hit_and_falls_at_the_end_of_the_turn() -> None:
    run = position(hands(["shield"], 1, 1), spells=["burning_tar", "stone"])
    to_race(run)
    legal = run.rules.legal_actions(run.table.state, 0, run.table.knowledge[0])
    assert len(legal) == 1
    play(run, 0, "shield")
    assert g(run)["shield"][0] is True
    assert spell(run)["step"] == 1 and spell(run)["target"] == 0
    settle(run)
    state = g(run)
    assert state["life"][0] == 5 and state["burns"][0] == 0  # neither damage nor the keyword
    assert state["shield"] == [False, False, False]


def test_shield_protects_only_its_player_and_once() -> None:
    run = position(hands(["shield", "shield"], ["wind_right"], 1), spells=["stone"], totem=1)
    to_race(run)
    play(run, 0, "shield")
    assert run.rules.legal_actions(run.table.state, 0, run.table.knowledge[0]) == []
    settle(run)
    assert g(run)["life"] == [5, 3, 5]


def test_mirror_sends_the_spell_back_to_its_previous_target() -> None:
    run = position(hands(["wind_left"], ["mirror"], 1, 1), spells=["fire"])
    to_race(run)
    assert (
        run.rules.legal_actions(run.table.state, 1, run.table.knowledge[1]) == []
    )  # no previous yet
    play(run, 0, "wind_left")
    play(run, 1, "mirror")
    assert spell(run)["target"] == 0 and spell(run)["prev"] == 1
    assert spell(run)["changes"] == 2 and spell(run)["power"] == 2  # a change of target


def test_mirror_needs_a_living_previous_target() -> None:
    run = position(
        hands(["wind_left"], ["wind_all"], ["mirror"], 1), spells=["magic_arrow"], totem=1
    )
    to_race(run)
    play(run, 1, "wind_all", target=0)
    g(run)["alive"][1] = False  # as if seat 1 were out (state edited for the check only)
    assert run.rules.legal_actions(run.table.state, 2, run.table.knowledge[2]) == []


def test_gust_adds_one_power_without_changing_the_target() -> None:
    run = position(hands(1, ["gust"], 1), spells=["stone"])
    to_race(run)
    play(run, 1, "gust")
    assert spell(run)["power"] == 3 and spell(run)["target"] == 0
    assert spell(run)["changes"] == 0 and spell(run)["step"] == 1
    settle(run)
    assert g(run)["life"][0] == 2


def test_played_cards_go_face_up_to_the_action_discard() -> None:
    run = position(hands(["wind_left", "gust"], 1, 1))
    to_race(run)
    slot = action(run, 0, "gust")["slot"]
    play(run, 0, "gust")
    state = g(run)
    assert slot in state["discard"] and slot not in state["hands"][0]
    assert state["known"][str(slot)] == "gust"
    assert state["played"] is True


def test_stale_step_is_refused_and_the_card_stays_in_hand() -> None:
    run = position(hands(["wind_left"], ["wind_left"], 1))
    to_race(run)
    late = opened(run, action(run, 1, "wind_left"))  # seat 1 decided on step 0 …
    play(run, 0, "wind_left")  # … but seat 0's wind came first
    assert spell(run)["step"] == 1
    with pytest.raises(IllegalAction, match="опоздало"):
        run.rules.apply(run.table.state, late)
    assert hand_cards(run, 1) == ["wind_left"]
    fresh = opened(run, action(run, 1, "wind_left"))
    assert fresh["step"] == 1
    run.table.apply(fresh)
    assert spell(run)["target"] == 2


def test_card_not_in_hand_is_refused() -> None:
    run = position(hands(["wind_left"], ["wind_left"], 1))
    to_race(run)
    act = opened(run, action(run, 0, "wind_left"))
    act["seat"] = 2  # seat 2 claims seat 0's card
    with pytest.raises(IllegalAction, match="нет в руке"):
        run.rules.apply(run.table.state, act)
    act = opened(run, action(run, 0, "wind_left"))
    act["slot"] = act["open"][0]["slot"] = 47  # a slot in the deck
    with pytest.raises(IllegalAction):
        run.rules.apply(run.table.state, act)


def test_the_card_comes_only_from_a_matching_opening() -> None:
    run = position(hands(["wind_left", "dispel"], 1, 1))
    to_race(run)
    shown = action(run, 0, "wind_left")
    with pytest.raises(IllegalAction):  # «show» alone names no card
        run.rules.apply(run.table.state, shown)
    act = opened(run, shown)
    act["open"] = [{"slot": act["slot"], "card": "dispel"}]
    state = run.rules.apply(run.table.state, act)["g"]  # it believes the (checked) opening only
    assert state["spell"] is None and state["spell_discard"]
    act = opened(run, action(run, 0, "wind_left"))
    act["open"] = [{"slot": act["slot"] + 1, "card": "wind_left"}]
    with pytest.raises(IllegalAction, match="не совпадает"):
        run.rules.apply(run.table.state, act)
    act["open"] = [{"slot": act["slot"], "card": "fire"}]
    with pytest.raises(IllegalAction):
        run.rules.apply(run.table.state, act)


def test_a_seat_that_is_out_cannot_play() -> None:
    run = position(hands(1, 1, 1))
    to_race(run)
    act = opened(run, action(run, 2, "wind_left"))
    data = dict(g(run))
    data["alive"] = [True, True, False]  # as if seat 2 were out (a state made for the check)
    state = {**run.table.state, "g": data}
    with pytest.raises(IllegalAction):
        run.rules.apply(state, act)
    assert run.rules.legal_actions(state, 2, run.table.knowledge[2]) == []


def test_moves_outside_the_scramble_are_refused() -> None:
    run = position(hands(1, 1, 1))
    act = {"type": "play", "seat": 0, "slot": 0, "open": [{"slot": 0, "card": "wind_left"}]}
    with pytest.raises(IllegalAction):
        run.rules.apply(run.table.state, {**act, "step": 0})  # the spell has not flown yet
    with pytest.raises(IllegalAction):
        run.rules.apply(run.table.state, {"type": "settle"})


def test_a_card_that_does_not_move_the_spell_makes_no_crossing_play_stale() -> None:
    run = position(hands(["wind_left"], ["shield"], ["wind_left"], ["gust"]))
    to_race(run)
    wind = opened(run, action(run, 2, "wind_left"))  # seat 2 decided on step 0 …
    gust = opened(run, action(run, 3, "gust"))  # … and so did seat 3
    play(run, 1, "shield")  # seat 1's ЩИТ came first: the spell did not move
    run.table.apply(wind)  # so seat 2's ВЕТЕР still lands
    assert spell(run)["target"] == 1 and spell(run)["step"] == 2
    with pytest.raises(IllegalAction, match="опоздало"):  # the ВЕТЕР did move it
        run.rules.apply(run.table.state, gust)
    assert hand_cards(run, 3) == ["gust"]


def test_a_gust_and_a_crossing_wind_both_land() -> None:
    run = position(hands(["wind_left"], ["wind_left"], ["gust"]))
    to_race(run)
    power = spell(run)["power"]
    wind = opened(run, action(run, 1, "wind_left"))
    play(run, 2, "gust")
    run.table.apply(wind)
    assert spell(run)["target"] == 1 and spell(run)["power"] == power + 1
