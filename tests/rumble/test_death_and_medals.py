"""Seed: «Нежданчик», death and ghosts, medals with their edge cases, the next fight."""

from __future__ import annotations

from .helpers import lines, play

CALM = ["g_second_wind", "g_stubborn", "g_inheritance", "g_second_wind"]


def test_surprise_in_a_sealed_spell_cancels_death_cures_and_returns_life() -> None:
    result = play(
        [
            {
                "hand": ["x_surprise", "x_d3"],
                "seal": ["x_surprise", "x_d3"],
                "life": 5,
                "diseases": ["sparkpox", "gloomy_blues"],
            },
            {"hand": ["x_left5"], "seal": ["x_left5"]},
        ],
        choices=[{"seat": 0, "phase": "surprise", "reveal": True}],
    )
    assert result["alive"] == [True, True]
    assert result["diseases"][0] == []
    assert result["life"] == [2, 19]  # back with 2 life, then its spell still cast (1 damage)
    assert result["medals"]["kills"] == [0, 0]


def test_surprise_without_diseases_does_not_save() -> None:
    result = play(
        [
            {"hand": ["x_surprise", "x_d3"], "seal": ["x_surprise", "x_d3"], "life": 5},
            {"hand": ["x_left5"], "seal": ["x_left5"]},
        ],
        draws={"ghost": CALM},
    )
    assert result["fight_results"][0]["alive"] == [False, True]
    assert lines(result, "лечить нечего")
    assert result["medals"]["kills"] == [0, 1]


def test_surprise_in_hand_does_not_save() -> None:
    result = play(
        [
            {"hand": ["x_surprise", "x_d3"], "seal": ["x_d3"], "life": 5, "diseases": ["sparkpox"]},
            {"hand": ["x_left5", "x_d10a"], "seal": ["x_left5", "x_d10a"]},
        ],
        draws={"ghost": CALM},
    )
    assert result["fight_results"][0]["alive"] == [False, True]


def test_surprise_on_a_prepared_unresolved_card_of_the_casting_spell_saves() -> None:
    result = play(
        [
            {
                "hand": ["x_self30", "x_q_surprise"],
                "seal": ["x_self30", "x_q_surprise"],
                "diseases": ["sparkpox"],
            },
            {},
        ],
    )
    assert result["alive"] == [True, True]
    assert result["life"][0] == 1


def test_surprise_already_resolved_does_not_save() -> None:
    result = play(
        [
            {
                "hand": ["x_surprise", "x_q_self30"],
                "seal": ["x_surprise", "x_q_self30"],
                "diseases": ["sparkpox"],
            },
            {},
            {},
        ],
        draws={"ghost": CALM},
    )
    assert result["alive"][0] is False


def test_death_loses_hand_creatures_ordinary_things_and_keeps_eternal_ones() -> None:
    result = play(
        [
            {"hand": ["x_left5"], "seal": ["x_left5"]},
            {
                "life": 4,  # the cloak takes 1 of the 5
                "creatures": ["x_beast"],
                "treasures": ["t_cloak", "t_bone_crown"],
                "diseases": ["sparkpox", "eternal_yawn"],
            },
            {},
        ],
        dice=[1, 1],  # seat 1 beast (+ the sparkpox sign: 2 dice) attacks first and leaves
        draws={"ghost": CALM},
    )
    assert result["alive"][1] is False
    assert result["treasures"][1] == ["t_bone_crown"]
    assert result["diseases"][1] == ["eternal_yawn"]
    assert result["creatures"][1] == []
    assert result["piles"]["treasure_discard"] == 1


def test_ghost_card_at_death_and_at_the_start_of_each_round_in_order_of_death() -> None:
    result = play(
        [
            {"hand": ["x_all3"], "seal": ["x_all3"]},
            {"life": 3},
            {"life": 3},
            {},
        ],
        draws={"ghost": ["g_second_wind", "g_stubborn", "g_inheritance", "g_second_wind"]},
    )
    drawn = lines(result, "(призрак) тянет карту")
    assert [line.split(" ")[1] for line in drawn] == ["2", "3", "2", "3"]


def test_a_ghost_can_earn_a_kill_medal() -> None:
    result = play(
        [{"hand": ["x_left5"], "seal": ["x_left5"]}, {"life": 5}, {"life": 2}],
        draws={"ghost": ["g_revenge"]},
    )
    assert result["fight_results"][0]["death_order"] == [1, 2]
    assert result["medals"]["kills"] == [1, 1, 0]


def test_all_die_at_once_the_caster_gets_the_survivor_medal() -> None:
    result = play(
        [
            {"hand": ["x_allp3"], "seal": ["x_allp3"], "life": 3},
            {"life": 3},
            {"life": 2},
        ],
        draws={"ghost": CALM},
        stop="fight",
    )
    assert result["medals"]["kills"] == [2, 0, 0]  # no medal for killing yourself
    assert result["medals"]["survivals"] == [1, 0, 0]


def test_a_ghost_finishing_the_last_living_wizard_leaves_them_the_survivor_medal() -> None:
    result = play(
        [{"hand": ["x_left5"], "seal": ["x_left5"], "life": 3}, {"life": 5}],
        draws={"ghost": ["g_bony_kick"]},
        stop="fight",
    )
    assert result["medals"]["survivals"] == [1, 0]
    assert result["medals"]["kills"] == [1, 1]


def test_killing_yourself_gives_no_medal() -> None:
    result = play(
        [{"hand": ["x_self30"], "seal": ["x_self30"]}, {}, {}],
        draws={"ghost": CALM},
    )
    assert result["alive"][0] is False
    assert result["medals"]["kills"] == [0, 0, 0]


def test_caster_who_dies_mid_spell_stops_casting() -> None:
    result = play(
        [{"hand": ["x_self30", "x_d_left2"], "seal": ["x_self30", "x_d_left2"]}, {}, {}],
        draws={"ghost": CALM},
    )
    assert result["life"][1:] == [20, 20]


def test_new_fight_everyone_at_twenty_palace_back_in_the_centre_no_reshuffle() -> None:
    result = play(
        [
            {"hand": ["x_left5", "x_palace"], "seal": ["x_left5"], "life": 9},
            {"life": 5, "diseases": ["eternal_hiccup", "sparkpox"]},
        ],
        palace=1,
        draws={"ghost": ["g_second_wind"]},
        stop="fight",
    )
    assert result["fight"] == 2
    assert result["palace"] is None
    assert result["medals"]["survivals"] == [1, 0]
    assert result["medals"]["kills"] == [1, 0]
    assert result["life"] == [20, 23]  # «Второе дыхание»: +3 in the next fight
    assert result["diseases"] == [[], ["eternal_hiccup"]]
    assert result["piles"]["discard"] >= 1  # the discard was not shuffled back


def test_palace_captured_by_a_ghost_stays_with_it_in_the_next_fight() -> None:
    result = play(
        [{"hand": ["x_left5"], "seal": ["x_left5"], "life": 3}, {"life": 5}],
        palace=0,
        draws={"ghost": ["g_bony_kick"]},
        stop="fight",
    )
    assert result["palace"] == 1
    assert lines(result, "остаются: Маг 2")


def test_a_ghost_sign_card_helps_in_the_next_fight() -> None:
    result = play(
        [{"hand": ["x_left5"], "seal": ["x_left5"]}, {"life": 5}],
        draws={"ghost": ["g_sign_spark"]},
        stop="fight",
    )
    assert result["fight"] == 2
    assert result["ghost_cards"][1] == {"next_fight": [], "this_fight": ["g_sign_spark"]}
