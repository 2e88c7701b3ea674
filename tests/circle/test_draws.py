"""Draws at the end of a turn, the «nobody holds a card» rule, and the action deck's reshuffle."""

from __future__ import annotations

from engine.core.model import Kind

from .helpers import g, hand_cards, hands, play, position, settle, to_race


def test_after_an_action_fewer_than_five_draw_two_five_draw_one_six_none() -> None:
    players = hands(["wind_left", "wind_left"], 3, 4, 5, 6)
    run = position(players, spells=["magic_arrow"], totem=4)
    to_race(run)
    play(run, 0, "wind_left")  # an action this turn; the arrow goes from seat 4 to seat 0
    run.table.apply({"type": "settle"})
    assert [len(h) for h in g(run)["hands"]] == [3, 5, 6, 6, 6]


def test_no_action_played_nobody_draws() -> None:
    run = position(hands(1, 2, 3), spells=["magic_arrow"])
    to_race(run)
    run.table.apply({"type": "settle"})
    assert [len(h) for h in g(run)["hands"]] == [1, 2, 3]
    assert not any(e["e"] == "draw" for e in g(run)["log"])


def test_nobody_holds_a_card_so_everybody_draws_three() -> None:
    run = position(hands(["dispel"], [], []))
    to_race(run)
    play(run, 0, "dispel")  # the last card in anyone's hand
    assert [len(h) for h in g(run)["hands"]] == [3, 3, 3]
    assert any(e["e"] == "empty" for e in g(run)["log"])


def test_nobody_holds_a_card_even_without_an_action() -> None:
    run = position(hands([], [], []), spells=["magic_arrow"])
    to_race(run)
    run.table.step({})  # nobody can act: the table settles at once
    assert [len(h) for h in g(run)["hands"]] == [3, 3, 3]


def test_only_living_players_draw_and_the_new_totem_holder_first() -> None:
    players = [*hands(["wind_left"], 1), {"alive": False}, *hands(1)]
    run = position(players, spells=["magic_arrow"])
    to_race(run)
    play(run, 0, "wind_left")
    run.table.apply({"type": "settle"})
    draws = [(e["seat"], e["count"]) for e in g(run)["log"] if e["e"] == "draw"]
    assert draws == [(1, 2), (3, 2), (0, 2)]
    assert g(run)["hands"][2] == []


def test_drawn_cards_are_visible_to_their_owner_only() -> None:
    run = position(hands(["wind_left"], 1, 1), deck_top=["gust", "mirror", "shield"])
    to_race(run)
    play(run, 0, "wind_left")
    run.table.apply({"type": "settle"})
    assert hand_cards(run, 1) == ["wind_left", "gust", "mirror"]  # seat 1 holds the totem now
    new = g(run)["hands"][1][1:]
    assert set(new) <= run.rules.visible_slots(run.table.state, 1)
    assert not set(new) & run.rules.visible_slots(run.table.state, 0)
    assert all(s in run.table.knowledge[1].cards for s in new)
    assert not any(s in run.table.knowledge[0].cards for s in new)


def test_empty_action_deck_draws_what_is_left_then_reshuffles_the_discard() -> None:
    run = position(hands(["wind_left"], 1, 1), deck_top=["gust"], deck_size=1)
    state = g(run)
    assert len(state["deck"]) == 1
    discard_before = list(state["discard"])
    to_race(run)
    played = state["hands"][0][0]
    play(run, 0, "wind_left")
    run.table.apply({"type": "settle"})
    decision = run.table.decision()
    assert decision.kind == Kind.RESHUFFLE and decision.deck == "actions"
    state = g(run)
    assert hand_cards(run, 1) == ["wind_left", "gust"]  # what was left went first
    assert list(decision.slots) == sorted([*discard_before, played])
    assert state["queue"][0][:2] == [1, 1]  # seat 1 still waits for one card
    run.table.step({})  # the table reshuffles the discard face down
    state = g(run)
    assert state["discard"] == []
    assert not any(str(s) in state["known"] for s in decision.slots)
    assert [len(h) for h in state["hands"]] == [2, 3, 3]
    assert run.table.decision().kind == Kind.CHANCE
    assert any(e["e"] == "reshuffle" for e in state["log"])


def test_conserved_cards_after_a_reshuffle() -> None:
    run = position(hands(["wind_left"], 1, 1), deck_size=0)
    to_race(run)
    play(run, 0, "wind_left")
    settle(run)
    state = g(run)
    slots = state["deck"] + state["discard"] + [s for h in state["hands"] for s in h]
    assert sorted(slots) == list(range(48))
