"""Seed: assembly with wild magic, the queue, hidden initiative, added components, empty hands."""

from __future__ import annotations

from engine.core.local_table import LocalTable
from engine.games.rumble import RumbleRules
from engine.games.rumble.bot import timer_choice
from engine.games.rumble.cards import WILD, load_catalog
from engine.games.rumble.scenario import run_scenario

from .helpers import lines, play, sentences


def test_fewer_cards_cast_first() -> None:
    result = play(
        [
            {"hand": ["x_left5", "x_q_left1", "x_d3"], "seal": ["x_left5", "x_q_left1", "x_d3"]},
            {"hand": ["x_right5"], "seal": ["x_right5"]},
        ]
    )
    assert lines(result, "Очередь: Маг 2 (1 карта), Маг 1 (3 карты)")


def test_equal_counts_higher_initiative_first() -> None:
    result = play(
        [{"hand": ["x_d3"], "seal": ["x_d3"]}, {"hand": ["x_d10a"], "seal": ["x_d10a"]}, {}]
    )
    assert lines(result, "Очередь: Маг 3 (0 карт), Маг 2 (1 карта), Маг 1 (1 карта)")


def test_equal_initiative_goes_to_a_roll_off() -> None:
    result = play(
        [{"hand": ["x_d10a"], "seal": ["x_d10a"]}, {"hand": ["x_d10b"], "seal": ["x_d10b"]}],
        dice=[2, 5],
    )
    assert lines(result, "Жребий за место в очереди")
    assert lines(result, "Очередь: Маг 2 (1 карта), Маг 1 (1 карта)")


def test_roll_off_ties_roll_again() -> None:
    result = play(
        [{"hand": ["x_d10a"], "seal": ["x_d10a"]}, {"hand": ["x_d10b"], "seal": ["x_d10b"]}],
        dice=[4, 4, 6, 1],
    )
    assert len(lines(result, "Жребий")) == 2
    assert lines(result, "Очередь: Маг 1 (1 карта), Маг 2 (1 карта)")


def test_wild_magic_as_delivery_has_initiative_zero() -> None:
    result = play(
        [
            {"hand": ["wild"], "seal": [{"card": "wild", "as": "delivery"}]},
            {"hand": ["x_d3"], "seal": ["x_d3"]},
        ],
        deck_top=["x_d_left2"],
    )
    assert lines(result, "Очередь: Маг 2 (1 карта), Маг 1 (1 карта)")
    assert lines(result, "инициатива 0")


def test_spell_without_delivery_has_initiative_zero() -> None:
    result = play(
        [{"hand": ["x_left5"], "seal": ["x_left5"]}, {"hand": ["x_d3"], "seal": ["x_d3"]}]
    )
    assert lines(result, "Очередь: Маг 2 (1 карта), Маг 1 (1 карта)")


def test_wild_magic_reveals_cards_until_the_needed_type() -> None:
    result = play(
        [{"hand": ["wild"], "seal": [{"card": "wild", "as": "delivery"}]}, {}],
        deck_top=["x_left5", "wild", "x_d_left2"],
    )
    assert len(lines(result, "— в сброс")) == 2
    assert lines(result, "Шальная магия становится «Тест x_d_left2»")
    assert result["life"][1] == 18
    assert result["piles"]["discard"] == 4  # two misses, the wild card, the cast delivery


def test_added_component_waits_for_the_current_card_then_general_order() -> None:
    result = play(
        [{"hand": ["x_add", "x_d3"], "seal": ["x_add", "x_d3"]}, {}],
        deck_top=["x_q_left1"],
    )
    log = sentences(result)
    added = log.index(next(line for line in log if "добавлен компонент" in line))
    quality = log.index("Маг 1: Тест x_q_left1.")
    delivery = log.index("Маг 1: Тест x_d3.")
    assert added < quality < delivery
    assert result["life"][1] == 18


def test_spell_name_agrees_in_gender_and_uses_the_genitive() -> None:
    result = play(
        [
            {
                "hand": ["q_spark_sparkling", "d_spark_thunderbolt", "src_spark_lord"],
                "seal": ["q_spark_sparkling", "d_spark_thunderbolt", "src_spark_lord"],
            },
            {"life": 25},
        ],
        dice=[1, 1, 1],
    )
    assert lines(result, "творит «Искрящийся Громовой Разряд от Лорда Искр»")
    result = play(
        [
            {
                "hand": ["q_spark_sparkling", "d_gloom_cloud"],
                "seal": ["q_spark_sparkling", "d_gloom_cloud"],
            },
            {"life": 25},
        ],
        dice=[1],
    )
    assert lines(result, "творит «Искрящееся Чумное Облако»")


def test_empty_hand_skips_casting() -> None:
    result = play([{"hand": ["x_left5"], "seal": ["x_left5"]}, {}])
    assert lines(result, "Маг 2: пустая рука — колдовство пропущено")


def test_timer_auto_seal_takes_one_card_a_delivery_where_possible() -> None:
    result = play([{"hand": ["x_left5", "x_q_left1", "x_d10a"]}, {}])
    assert lines(result, "Маг 1 запечатывает 1 карту")
    assert lines(result, "Маг 1: Тест x_d10a.")


def test_opponents_see_only_count_and_place_before_the_reveal() -> None:
    rules = RumbleRules()
    table = LocalTable(rules, {"seats": 3}, seed=5)
    while table.decision().phase != "open":
        table.step(timer_choice)
    caster = table.decision().seats[0]
    other = (caster + 1) % 3
    view = rules.view(table.state, table.knowledge[other])
    mine = view["seats"][caster]
    assert mine["sealed"] >= 1 and mine["queue_place"] is not None
    assert mine["initiative"] is None and mine["spell"] == []
    table.step(timer_choice)
    log = rules.view(table.state, table.knowledge[other])["log"]
    assert any(e["e"] == "open" and e["seat"] == caster and "initiative" in e for e in log)


def test_wild_magic_with_no_card_of_its_type_left_fizzles_after_one_reshuffle() -> None:
    deliveries = sorted(c for c in load_catalog().spell_deck() if c != WILD and c.startswith("d_"))
    assert len(deliveries) == 30
    hands = [deliveries[:7], deliveries[7:15], deliveries[15:23], deliveries[23:]]
    result = run_scenario(
        {
            "players": [
                {"hand": [WILD, *hands[0]], "seal": [{"card": WILD, "as": "delivery"}]},
                *({"hand": h, "seal": []} for h in hands[1:]),
            ],
            "deck_size": 0,  # every card not in a hand lies in the discard: not one delivery
        }
    )
    assert lines(result, "Колода кончилась: сброс перемешан")
    assert lines(result, "нет ни одного прихода: шальная магия рассеивается")
    assert not lines(result, "Шальная магия становится")
    assert result["round"] == 2 and result["waiting"] == "assembly"


def test_no_queue_place_from_last_round_is_shown_during_the_next_assembly() -> None:
    result = play(
        [{"hand": ["x_d3"], "seal": ["x_d3"]}, {"hand": ["x_d10a"], "seal": ["x_d10a"]}, {}]
    )
    assert lines(result, "Очередь: Маг 3 (0 карт), Маг 2 (1 карта), Маг 1 (1 карта)")
    assert result["round"] == 2 and result["waiting"] == "assembly"
    for seen in result["seats"]:
        assert seen["view"]["queue"] == []
        assert [s["queue_place"] for s in seen["view"]["seats"]] == [None, None, None]
