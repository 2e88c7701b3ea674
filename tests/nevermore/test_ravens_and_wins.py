"""Raven form, pecking, the return to human form and the three ways to win (seed «В обличии
ворона», «Победа в игре»); set-up: health by player count, the first dealer, the shadow card."""

from __future__ import annotations

from engine.core.local_table import LocalTable
from engine.games.nevermore import NevermoreRules
from engine.games.nevermore.resolution import returns_to_human

from .helpers import data, logged, play, player

A, H, R, V, X = "attack", "healing", "radiance", "victory", "raven"


def test_health_by_player_count_and_one_shadow_card_each() -> None:
    rules = NevermoreRules()
    for n, hp in ((3, 5), (4, 5), (5, 4), (6, 4)):
        t = LocalTable(rules, {"seats": n}, seed=n)
        assert data(t.state)["hp"] == [hp] * n
        assert all(len(m) == 1 for m in data(t.state)["magic"])
        assert all(t.slot_card[m[0]] in rules.cat.magic for m in data(t.state)["magic"])
        assert {rules.cat.magic[t.slot_card[m[0]]]["deck"] for m in data(t.state)["magic"]} == {
            "shadow"
        }


def test_first_dealer_draws_until_a_raven() -> None:
    rules = NevermoreRules()
    deck = rules.cat.deck("main")
    order = ["attack", "healing", "victory", "radiance", "raven"]
    rest = list(deck)
    for c in order:
        rest.remove(c)
    t = LocalTable(rules, {"seats": 3}, deck_orders={"main": order + rest})
    while data(t.state)["dealer"] is None:
        t.step(lambda *a: {})
    assert data(t.state)["dealer"] == 1
    assert sum(1 for e in data(t.state)["log"] if e["e"] == "dealer_draw") == 5


def test_raven_with_most_attack_blocks_and_pecks_the_second() -> None:
    out = play(
        [
            player("Ворон", [A, A, A, R, R], raven=True),
            player("Б", [A, A, V, V, R]),
            player("В", [R, V, H, H, R]),
        ],
        [{"seat": 0, "phase": "choose", "pick": True}],
    )
    assert not logged(out, "атакует")
    assert logged(out, "Ворон (ворон) клюёт: Б.")
    assert out["health"][1] == 4


def test_raven_pecks_every_human_when_nobody_else_has_the_suit() -> None:
    out = play(
        [
            player("Ворон", [V, R, R, H, H], raven=True),
            player("Б", [R, R, H, A, H]),
            player("В", [R, A, H, H, R]),
        ],
        [{"seat": 0, "phase": "choose", "pick": True}],
    )
    assert logged(out, "клюёт: Б, В.")
    assert out["vp"][0] == 0


def test_raven_returns_with_one_of_each_suit() -> None:
    assert returns_to_human([A, H, R, V, X])
    assert returns_to_human([V] * 5)
    assert not returns_to_human([A, A, H, R, V])
    out = play(
        [
            player("Ворон", [A, H, R, V, X], raven=True),
            player("Б", [R, R, V, V, R]),
            player("В", [R, V, V, R, V]),
        ]
    )
    assert not out["raven"][0]
    assert out["health"][0] == 4


def test_six_vp_in_human_form_wins() -> None:
    out = play(
        [
            player("А", [V, V, R, H, H], vp=5),
            player("Б", [R, R, V, H, H]),
            player("В", [R, R, H, H, R]),
        ]
    )
    assert out["over"] and out["winner"] == 0


def test_raven_cannot_win_with_six_vp() -> None:
    out = play(
        [
            player("Ворон", [A, A, R, H, H], vp=6, raven=True),
            player("Б", [R, R, V, H, H]),
            player("В", [R, R, H, V, R]),
        ],
        stop="round",
    )
    assert out["winner"] is None


def test_last_human_standing_wins() -> None:
    out = play(
        [
            player("А", [A, A, A, H, H]),
            player("Б", [R, R, V, H, H], health=1),
            player("В", [R, V, H, V, R], raven=True),
        ],
        [{"seat": 0, "phase": "choose", "pick": 1}],
    )
    assert out["over"] and out["winner"] == 0


def test_peck_that_turns_every_human_wins_for_the_raven() -> None:
    out = play(
        [
            player("Ворон", [V, R, R, H, H], raven=True),
            player("Б", [R, R, H, A, H], health=1),
            player("В", [R, A, H, H, R], health=1),
            player("Г", [R, A, R, H, R], raven=True),
        ],
        [{"seat": 0, "phase": "choose", "pick": True}],
        tokens=["victory", "attack", "healing", "radiance"],
    )
    assert out["winner"] == 0
    assert not out["raven"][0]


def test_players_tied_in_victory_score_together_and_the_tie_rule_decides() -> None:
    # Б (first in priority) and А reach 6 VP in the same Victory scoring: А has more health.
    out = play(
        [
            player("А", [V, R, R, H, R], vp=5),
            player("Б", [V, R, H, R, H], vp=5, health=3),
            player("В", [R, R, H, H, H]),
        ]
    )
    assert logged(out, "Большинство (Победа): Б, А — 1 против 0, сила 1.")
    assert out["vp"][:2] == [6, 6] and out["health"][:2] == [5, 3]
    assert out["over"] and out["winner"] == 0


def test_a_full_tie_at_six_vp_wins_for_nobody_and_play_goes_on() -> None:
    out = play(
        [
            player("А", [V, R, R, H, H], vp=5),
            player("Б", [V, R, H, H, R], vp=5),
            player("В", [R, R, H, H, R]),
        ]
    )
    assert out["vp"][:2] == [6, 6]
    assert not out["over"] and out["winner"] is None


def test_no_winner_by_the_round_limit() -> None:
    assert data(NevermoreRules().new_game({"seats": 3}))["max_rounds"] == 0  # off at the table
    out = play(
        [
            player("А", [V, V, V, H, H]),
            player("Б", [R, R, A, H, H]),
            player("В", [R, A, H, H, R]),
        ],
        stop="game",
        max_rounds=1,
    )
    assert out["over"] and out["winner"] is None
    assert logged(out, "победителя нет")


def test_a_raven_tied_with_a_human_for_the_most_does_not_peck_everyone() -> None:
    out = play(
        [
            player("Ворон", [V, R, R, H, H], raven=True),
            player("Б", [V, R, H, A, H]),
            player("В", [R, A, H, H, R]),
        ]
    )
    assert not logged(out, "клюёт")
    assert out["health"][2] == 5
