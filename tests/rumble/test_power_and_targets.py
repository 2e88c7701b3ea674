"""Seed ¶1–2: power rolls, sign sources, bonuses, bands; left/right/weakest/strongest/random."""

from __future__ import annotations

from typing import Any

from .helpers import lines, play, sentences


def test_power_roll_dice_count_every_sign_source() -> None:
    # spark signs: x_power + x_d_left2 (spell), x_beast (creature), sparkpox (disease),
    # ghost sign, sign treasure -> 6 dice
    result = play(
        [
            {
                "hand": ["x_power", "x_d_left2"],
                "seal": ["x_power", "x_d_left2"],
                "creatures": ["x_beast"],
                "diseases": ["sparkpox"],
                "ghost_signs": ["g_sign_spark"],
                "treasures": ["t_sign_spark"],
            },
            {"life": 25},
        ],
        dice=[1, 1, 1, 1, 1, 1] + [1] * 6,
    )
    assert lines(result, "могучий бросок 6d6: 1+1+1+1+1+1 = 6")


def test_boost_sources_and_power_treasure_add_to_every_roll() -> None:
    result = play(
        [
            {
                "hand": ["x_boost", "x_beast"],
                "seal": ["x_boost", "x_beast"],
                "treasures": ["t_power"],
            },
            {"life": 25},
        ],
        dice=[1, 1],
    )
    # x_boost is +1, the power treasure +1: 1d6 (beast) + x_boost is spark too -> 2 dice
    assert lines(result, "могучий бросок 2d6: 1+1 +2 = 4")


def test_band_thresholds_4_5_9_10() -> None:
    def hit(dice: list[int], boost: bool = False) -> int:
        seal = ["x_power"]
        result = play([{"hand": seal, "seal": seal}, {"life": 25}], dice=dice)
        return 25 - result["life"][1]

    assert hit([4]) == 1
    assert hit([5]) == 2
    assert hit([6]) == 2


def test_band_ten_and_more_with_boost() -> None:
    result = play(
        [{"hand": ["x_boost", "x_beast"], "seal": ["x_boost", "x_beast"]}, {"life": 25}],
        dice=[5, 4, 6],
    )
    # 5+4 +1 = 10 -> the beast's top band: 3 damage
    assert result["life"][1] == 22


def test_left_and_right_are_nearest_living_neighbours() -> None:
    players: list[dict[str, Any]] = [
        {"hand": ["x_left5", "x_d_left2"], "seal": ["x_left5"]},
        {"alive": False},
        {"life": 20},
        {"life": 20},
    ]
    calm = {"ghost": ["g_second_wind"]}
    result = play(players, draws=calm)
    assert result["life"][2] == 15  # seat 1 is dead: the left enemy is seat 2
    result = play(
        [{"hand": ["x_right5"], "seal": ["x_right5"]}, {}, {}, {"alive": False}], draws=calm
    )
    assert result["life"][2] == 15  # seat 3 is dead: the right enemy is seat 2


def test_weakest_tie_the_caster_chooses_among_tied() -> None:
    players: list[dict[str, Any]] = [
        {"hand": ["x_weak2"], "seal": ["x_weak2"]},
        {"life": 7},
        {"life": 7},
        {"life": 9},
    ]
    result = play(players, choices=[{"seat": 0, "phase": "target", "target": 2}])
    assert result["life"][1:] == [7, 5, 9]
    assert lines(result, "выбирает цель (самый хилый)")


def test_weakest_tie_auto_choice_takes_first_tied() -> None:
    result = play(
        [{"hand": ["x_weak2"], "seal": ["x_weak2"]}, {"life": 9}, {"life": 4}, {"life": 4}]
    )
    assert result["life"][1:] == [9, 2, 4]


def test_strongest_target() -> None:
    result = play([{"hand": ["x_strong2"], "seal": ["x_strong2"]}, {"life": 9}, {"life": 12}])
    assert result["life"][1:] == [9, 10]


def test_random_target_rerolls_leftover_values() -> None:
    # four enemies share 1..4; 5 and 6 are rolled again
    players = [{"hand": ["x_rand1"], "seal": ["x_rand1"]}, {}, {}, {}, {}]
    result = play(players, dice=[6, 5, 3])
    assert len(lines(result, "перебрасывается")) == 2
    assert result["life"][1:] == [20, 20, 19, 20]


def test_random_target_among_two_enemies_uses_halves() -> None:
    result = play([{"hand": ["x_rand1"], "seal": ["x_rand1"]}, {}, {}], dice=[4])
    assert result["life"][1:] == [20, 19]


def test_target_chosen_before_the_roll() -> None:
    result = play([{"hand": ["x_power"], "seal": ["x_power"]}, {}], dice=[3])
    log = sentences(result)
    assert any("могучий бросок" in line for line in log)
