"""Seed ¶6: treasures lie face up; active ones once a turn for a discard; passive ones alone."""

from __future__ import annotations

from .helpers import lines, play


def test_active_treasure_is_paid_by_a_discard_and_used_once_per_turn() -> None:
    result = play(
        [
            {
                "hand": ["x_d3", "x_right5", "x_left5"],
                "seal": ["x_d3"],
                "treasures": ["t_thunder_stick"],
            },
            {"life": 25},
        ],
        choices=[
            {"seat": 0, "phase": "treasure", "use": "t_thunder_stick", "cards": ["x_right5"]},
            {"seat": 0, "phase": "treasure", "use": "t_thunder_stick", "cards": ["x_left5"]},
        ],
    )
    assert lines(result, "применяет «Громовая палка», сбросив: Тест x_right5")
    assert result["life"][1] == 25 - 2 - 1
    assert len(result["unused_choices"]) == 1  # no second use in the same turn
    assert result["treasures"][0] == ["t_thunder_stick"]


def test_active_treasure_can_be_used_before_ending_a_turn_without_a_spell() -> None:
    result = play(
        [
            {"hand": [], "treasures": ["t_potion"], "life": 10},
            {"hand": ["x_left5"], "seal": ["x_left5"]},
        ],
    )
    # nothing to discard: the potion cannot be paid for
    assert result["life"][0] == 10 - 5


def test_passive_treasure_works_by_itself() -> None:
    result = play([{"treasures": ["t_hot_water_bottle"], "life": 10}, {}])
    assert result["life"][0] == 11


def test_treasure_draw_is_a_blind_pick_from_what_remains() -> None:
    result = play(
        [{"hand": ["q_haze_ghostly"], "seal": ["q_haze_ghostly"]}, {}],
        draws={"treasure": ["t_cloak"]},
    )
    assert result["treasures"][0] == ["t_cloak"]
    assert result["piles"]["treasures"] == 24


def test_life_never_exceeds_twenty_five() -> None:
    result = play([{"hand": ["x_heal10"], "seal": ["x_heal10"], "life": 20}, {}])
    assert result["life"][0] == 25


def test_two_copies_of_an_active_treasure_are_each_used_once_per_turn() -> None:
    result = play(
        [
            {
                "hand": ["x_d3", "x_right5", "x_left5", "x_all3"],
                "seal": ["x_d3"],
                "treasures": ["t_potion", "t_potion"],
                "life": 10,
            },
            {"life": 25},
        ],
        choices=[
            {"seat": 0, "phase": "treasure", "use": "t_potion", "cards": ["x_right5"]},
            {"seat": 0, "phase": "treasure", "use": "t_potion", "cards": ["x_left5"]},
            {"seat": 0, "phase": "treasure", "use": "t_potion", "cards": ["x_all3"]},
        ],
    )
    assert len(lines(result, "применяет «Бутыль микстуры»")) == 2
    assert result["life"][0] == 10 + 3 + 3
    assert len(result["unused_choices"]) == 1  # each copy once, no third use
