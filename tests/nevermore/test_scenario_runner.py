"""The scenario runner sets up positions after the first round and shows what each seat sees."""

from __future__ import annotations

import pytest

from engine.core.scenario import ScenarioError

from .helpers import lines, logged, play, player

A, H, R, V, X = "attack", "healing", "radiance", "victory", "raven"


def test_a_later_round_with_its_dealer_direction_and_token_order() -> None:
    out = play(
        [
            player("А", [A, A, V, H, H]),
            player("Б", [A, A, R, R, V]),
            player("В", [R, V, H, H, R]),
        ],
        round=3,
        dealer=1,
        direction="right",
        tokens=["victory", "radiance", "attack", "healing"],
    )
    assert logged(out, "— Раунд 3. Раздаёт Б, передача направо. —")
    calls = [line for line in lines(out) if line.startswith("Раздающий называет масть")]
    assert [c.split(": ")[1].rstrip(".") for c in calls] == ["Победа", "Сияние", "Атака", "Лечение"]
    # tied attackers: nearest the dealer (Б) going right is А, the dealer Б last
    attacks = [line for line in lines(out) if " атакует " in line]
    assert attacks[0].startswith("А атакует") and attacks[1].startswith("Б атакует")
    assert out["round"] == 4  # stopped at the start of the next round


def test_a_later_round_reveals_its_face_down_tokens_one_by_one() -> None:
    out = play(
        [player("А", [A, A, V, H, H]), player("Б", [R, R, V, H, A]), player("В", [R, V, H, H, R])],
        round=2,
        tokens=["victory", "attack", "radiance", "healing"],
    )
    calls = [line for line in lines(out) if line.startswith("Раздающий называет масть")]
    assert [c.split(": ")[1].rstrip(".") for c in calls] == ["Победа", "Атака", "Сияние", "Лечение"]
    assert logged(out, "передача направо")  # round 2 passes the other way by default


def test_magic_in_force_from_the_last_round() -> None:
    players = [
        player("А", [A, A, V, H, H], magic=["heal"], health=3),
        player("Б", [R, R, V, H, A]),
        player("В", [R, V, H, H, R]),
    ]
    moves = [{"seat": 0, "play": "heal", "window": "before_resolution"}]
    assert logged(play(players, moves, round=2), "А разыгрывает «Исцеление»")
    with pytest.raises(ScenarioError, match="не сыграны ходы"):  # «Погребение»: no Light cards
        play(players, moves, round=2, in_force=["entomb"])


def test_each_seat_sees_its_own_cards() -> None:
    out = play(
        [
            player("А", [A, A, V, H, H], magic=["heal"]),
            player("Б", [R, R, V, H, A]),
            player("В", [R, V, H, H, R]),
        ],
        stop="round",
    )
    seats = out["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert seats[0]["magic"].count("heal") == 1 and "heal" not in seats[1]["magic"]
    assert "log" not in seats[0]["view"]
    assert seats[0]["view"]["hand_size"] == [len(s["hand"]) for s in seats]
