"""Seed ¶4–5 and the special cases: the Palace, disease tokens, Hepatitis, warts, Трындецит."""

from __future__ import annotations

from typing import Any

import pytest

from engine.games.rumble.scenario import ScenarioError

from .helpers import lines, play


def test_palace_owner_is_immune_to_infection_from_others() -> None:
    result = play([{"hand": ["x_infect_left"], "seal": ["x_infect_left"]}, {}], palace=1)
    assert result["diseases"][1] == []
    assert lines(result, "под защитой Хоромов")
    assert result["piles"]["bag"] == 20


def test_palace_owner_is_infected_by_own_cards() -> None:
    result = play(
        [{"hand": ["x_infect_self"], "seal": ["x_infect_self"]}, {}],
        palace=0,
        draws={"disease": ["sparkpox"]},
    )
    assert result["diseases"][0] == ["sparkpox"]


def test_palace_owner_is_immune_to_disease_transfer() -> None:
    result = play(
        [{"hand": ["x_transfer_left"], "seal": ["x_transfer_left"], "diseases": ["bonebreak"]}, {}],
        palace=1,
    )
    assert result["diseases"] == [["bonebreak"], []]


def test_killer_of_the_palace_owner_takes_the_palace() -> None:
    result = play(
        [{"hand": ["x_left5"], "seal": ["x_left5"]}, {"life": 5}, {}],
        palace=1,
        draws={"ghost": ["g_second_wind"]},
    )
    assert result["palace"] == 0
    assert result["alive"] == [True, False, True]


def test_tokens_are_blind_draws_and_return_to_the_bag_after_healing() -> None:
    result = play(
        [
            {
                "hand": ["src_thicket_mother"],
                "seal": ["src_thicket_mother"],
                "diseases": ["sparkpox"],
            },
            {},
        ],
    )
    assert result["diseases"][0] == []
    assert result["piles"]["bag"] == 20


def test_transfer_passes_an_ordinary_disease() -> None:
    result = play(
        [
            {
                "hand": ["x_transfer_left"],
                "seal": ["x_transfer_left"],
                "diseases": ["gloomy_blues"],
            },
            {},
        ],
    )
    assert result["diseases"] == [[], ["gloomy_blues"]]


def test_eternal_diseases_are_not_cured() -> None:
    result = play(
        [
            {
                "hand": ["src_thicket_mother"],
                "seal": ["src_thicket_mother"],
                "diseases": ["eternal_yawn"],
            },
            {},
        ],
    )
    assert result["diseases"][0] == ["eternal_yawn"]


def test_hepatitis_removes_a_card_from_a_closed_spell_and_keeps_the_queue_place() -> None:
    result = play(
        [
            {
                "hand": ["x_left5", "x_d10a"],
                "seal": ["x_left5", "x_d10a"],
                "diseases": ["hepatitis"],
            },
            {"hand": ["x_right5"], "seal": ["x_right5"]},
        ],
        choices=[{"seat": 0, "phase": "drop", "card": "x_left5"}],
    )
    assert lines(result, "Гепатит Ы: Маг 1 тайно убирает карту")
    assert lines(result, "Очередь: Маг 2 (1 карта), Маг 1 (2 карты)")
    assert result["life"][1] == 19  # only the delivery (1 damage) was cast
    assert result["piles"]["discard"] == 3


def test_hepatitis_caught_mid_round_shrinks_the_still_closed_spell() -> None:
    result = play(
        [
            {"hand": ["x_infect_left"], "seal": ["x_infect_left"]},
            {"hand": ["x_left5", "x_d10a"], "seal": ["x_left5", "x_d10a"]},
        ],
        draws={"disease": ["hepatitis"]},
        choices=[{"seat": 1, "phase": "drop", "card": "x_d10a"}],
    )
    assert result["diseases"][1] == ["hepatitis"]
    assert result["life"][0] == 15  # x_left5 still cast; the delivery was removed


def test_warts_turn_an_all_enemies_effect_into_one_chosen_enemy() -> None:
    result = play(
        [{"hand": ["x_all3"], "seal": ["x_all3"], "diseases": ["warts"]}, {}, {}, {}],
        choices=[{"seat": 0, "phase": "target", "target": 3}],
    )
    assert result["life"][1:] == [20, 20, 17]


def test_warts_infection_roll_is_made_by_the_chosen_enemy_only() -> None:
    result = play(
        [{"hand": ["x_infect_all"], "seal": ["x_infect_all"], "diseases": ["warts"]}, {}, {}],
        choices=[{"seat": 0, "phase": "target", "target": 2}],
        dice=[1],
        draws={"disease": ["sparkpox"]},
    )
    assert result["diseases"][1:] == [[], ["sparkpox"]]
    assert len(lines(result, "бросает на заражение")) == 1


def test_end_of_turn_disease_triggers_after_own_turn() -> None:
    result = play([{"diseases": ["bonebreak"]}, {}])
    assert result["life"] == [19, 20]
    assert lines(result, "конец хода")


def test_end_of_turn_disease_caught_in_an_opponents_turn_waits_for_your_turn() -> None:
    # seat 1 infects seat 0 after seat 0's turn: nothing triggers in this round
    result = play(
        [
            {"hand": ["x_d3"], "seal": ["x_d3"]},
            {"hand": ["x_infect_left", "x_d10a"], "seal": ["x_infect_left", "x_d10a"]},
        ],
        draws={"disease": ["bonebreak"]},
    )
    assert result["diseases"][0] == ["bonebreak"]
    assert result["life"][0] == 19  # only the delivery's 1 damage
    assert not lines(result, "конец хода")


def test_trindecit_deals_two_at_once_and_goes_back_to_the_bag() -> None:
    result = play(
        [{"hand": ["x_infect_left"], "seal": ["x_infect_left"]}, {}],
        draws={"disease": ["trindecit"]},
    )
    assert result["life"][1] == 18
    assert result["diseases"][1] == []
    assert result["piles"]["bag"] == 20


def test_death_from_disease_text_earns_no_medal() -> None:
    result = play(
        [{"diseases": ["bonebreak"], "life": 1}, {}, {}],
        draws={"ghost": ["g_second_wind"]},
    )
    assert result["alive"][0] is False
    assert result["medals"]["kills"] == [0, 0, 0]


def test_warts_leave_single_target_effects_alone() -> None:
    result = play(
        [{"hand": ["x_left5"], "seal": ["x_left5"], "diseases": ["warts"]}, {}, {}],
        choices=[{"seat": 0, "phase": "target", "target": 2}],
    )
    assert result["life"][1:] == [15, 20]
    assert result["unused_choices"]


def test_warts_and_a_tie_for_weakest_still_choose_only_among_the_tied() -> None:
    players: list[dict[str, Any]] = [
        {"hand": ["x_weak2"], "seal": ["x_weak2"], "diseases": ["warts"]},
        {"life": 6},
        {"life": 6},
        {"life": 15},
    ]
    result = play(players, choices=[{"seat": 0, "phase": "target", "target": 2}])
    assert result["life"][1:] == [6, 4, 15]
    with pytest.raises(ScenarioError):
        play(players, choices=[{"seat": 0, "phase": "target", "target": 3}])


def test_the_player_chooses_which_disease_to_cure() -> None:
    result = play(
        [
            {
                "hand": ["src_thicket_mother"],
                "seal": ["src_thicket_mother"],
                "diseases": ["sparkpox", "gloomy_blues", "eternal_yawn"],
            },
            {},
        ],
        choices=[{"seat": 0, "phase": "cure", "disease": "sparkpox"}],
    )
    assert result["unused_choices"] == []
    assert lines(result, "вылечивает «Искрянка»")
    assert result["diseases"][0] == ["gloomy_blues", "eternal_yawn"]


def test_the_player_chooses_which_disease_to_pass_on() -> None:
    result = play(
        [
            {
                "hand": ["x_transfer_left"],
                "seal": ["x_transfer_left"],
                "diseases": ["sparkpox", "gloomy_blues"],
            },
            {},
        ],
        choices=[{"seat": 0, "phase": "transfer", "disease": "sparkpox"}],
    )
    assert result["unused_choices"] == []
    assert result["diseases"] == [["gloomy_blues"], ["sparkpox"]]


def test_the_timer_cures_the_most_recent_disease() -> None:
    result = play(
        [
            {
                "hand": ["src_thicket_mother"],
                "seal": ["src_thicket_mother"],
                "diseases": ["sparkpox", "gloomy_blues"],
            },
            {},
        ],
    )
    assert result["diseases"][0] == ["sparkpox"]


def test_palace_owner_rolls_no_infection_roll_from_others() -> None:
    result = play(
        [{"hand": ["x_infect_all"], "seal": ["x_infect_all"]}, {}, {}],
        palace=1,
        dice=[6],  # one roll only: seat 2's; the Palace owner does not roll
    )
    assert lines(result, "Маг 2 под защитой Хоромов")
    assert not lines(result, "Маг 2 бросает на заражение")
    assert lines(result, "Маг 3 бросает на заражение: 6")
    assert result["unused_dice"] == []
