"""Seed ¶3 and «Плащ и тварь»: creatures stay on 5+, attack again, absorb, never copies."""

from __future__ import annotations

from .helpers import lines, play


def test_creature_stays_on_five_and_more_and_gives_its_sign() -> None:
    result = play([{"hand": ["x_beast"], "seal": ["x_beast"]}, {}], dice=[5])
    assert result["creatures"][0] == ["x_beast"]
    assert result["life"][1] == 18


def test_creature_below_five_goes_to_the_discard() -> None:
    result = play([{"hand": ["x_beast"], "seal": ["x_beast"]}, {}], dice=[4])
    assert result["creatures"][0] == []
    assert result["piles"]["discard"] == 1


def test_creature_attacks_again_next_turn_and_leaves_below_five() -> None:
    result = play([{"creatures": ["x_beast"]}, {}], dice=[6])
    assert lines(result, "атакует снова")
    assert result["creatures"][0] == ["x_beast"]
    result = play([{"creatures": ["x_beast"]}, {}], dice=[2])
    assert result["creatures"][0] == []
    assert lines(result, "уходит в сброс")


def test_creature_is_not_part_of_the_new_spell_length() -> None:
    # seat 0 has a creature and seals 1 card; seat 1 seals 2: seat 0 still goes first
    result = play(
        [
            {"hand": ["x_d3"], "seal": ["x_d3"], "creatures": ["x_beast"]},
            {"hand": ["x_left5", "x_d10a"], "seal": ["x_left5", "x_d10a"]},
        ],
        dice=[1],
    )
    assert lines(result, "Очередь: Маг 1 (1 карта), Маг 2 (2 карты)")


def test_creature_absorbs_a_whole_enemy_hit() -> None:
    result = play(
        [{"hand": ["x_left5"], "seal": ["x_left5"]}, {"creatures": ["x_beast"]}],
        choices=[{"seat": 1, "phase": "absorb", "creature": "x_beast"}],
        dice=[6],  # seat 1 (no spell) goes first: its beast hits seat 0 for 2 and stays
    )
    assert result["life"] == [18, 20]
    assert result["creatures"][1] == []
    assert lines(result, "поглощает 5 урона")


def test_auto_choice_takes_the_hit_and_keeps_the_creature() -> None:
    result = play(
        [{"hand": ["x_left5"], "seal": ["x_left5"]}, {"creatures": ["x_beast"]}],
        dice=[6],
    )
    assert result["life"][1] == 15
    assert result["creatures"][1] == ["x_beast"]


def test_own_damage_is_not_absorbed() -> None:
    result = play(
        [{"hand": ["x_allp3"], "seal": ["x_allp3"], "creatures": ["x_beast"]}, {}], dice=[6]
    )
    assert result["life"] == [17, 15]  # 3 to both, then the beast attacks again for 2
    assert result["creatures"][0] == ["x_beast"]
    assert not lines(result, "поглощает")


def test_disease_text_damage_is_not_absorbed() -> None:
    result = play([{"diseases": ["bonebreak"], "creatures": ["x_beast"]}, {}], dice=[6])
    assert result["life"][0] == 19
    assert result["creatures"][0] == ["x_beast"]


def test_scaly_cloak_lowers_each_enemy_hit_before_the_absorb_question() -> None:
    result = play(
        [
            {"hand": ["x_left5"], "seal": ["x_left5"]},
            {"creatures": ["x_beast"], "treasures": ["t_cloak"]},
        ],
        choices=[{"seat": 1, "phase": "absorb", "creature": "x_beast"}],
        dice=[6],
    )
    assert lines(result, "Чешуйчатый плащ смягчает удар до 4")
    assert lines(result, "поглощает 4 урона")


def test_hit_lowered_to_zero_asks_nothing_and_keeps_the_creature() -> None:
    # x_q_left1 deals 1; the cloak makes it 0: no creature is spent, no question asked
    result = play(
        [
            {"hand": ["x_q_left1"], "seal": ["x_q_left1"]},
            {"creatures": ["x_beast"], "treasures": ["t_cloak"]},
        ],
        choices=[{"seat": 1, "phase": "absorb", "creature": "x_beast"}],
        dice=[6],
    )
    assert result["life"][1] == 20
    assert result["creatures"][1] == ["x_beast"]
    assert result["unused_choices"]  # the absorb question never came


def test_copy_of_a_creature_never_stays() -> None:
    result = play(
        [{"hand": ["x_q_copy", "x_beast"], "seal": ["x_q_copy", "x_beast"]}, {"life": 25}],
        dice=[6, 1],
    )
    # the quality copies the beast first (6 -> 2 damage), then the beast itself rolls 1 -> leaves
    assert result["life"][1] == 25 - 2 - 1
    assert lines(result, "Копия эффекта прихода")
    assert result["creatures"][0] == []
