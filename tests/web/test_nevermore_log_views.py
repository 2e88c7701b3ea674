"""«Невермор»'s log on the page: events said in the page's language, and the end of the game (its
final event) in the summary."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from web.ui import i18n
from web.ui import nevermore_views as nv


@pytest.fixture
def english() -> Iterator[None]:
    i18n.use("en")
    yield
    i18n.use("ru")


LOG = [
    {"e": "round", "round": 2, "dealer": 1, "dir": -1},
    {"e": "play", "seat": 0, "card": "foretell"},
    {"e": "token", "suit": "attack", "betrayed": True},
    {"e": "damage", "seat": 1, "amount": 2, "why": "attack", "hp": 3},
    {"e": "vp", "seat": 0, "amount": 1, "why": "raven_made", "of": 1, "total": 4},
    {"e": "draw_magic", "seat": 2, "pile": "shadow", "count": 1},
]


def view(log: list[Any], **more: Any) -> dict[str, Any]:
    return {"names": ["Ann", "Bob", "Cy"], "log": log, **more}


def test_the_log_is_said_in_russian_or_english(english: None) -> None:
    assert nv.log_lines(view(LOG)) == [
        "— Round 2. Bob deals, passing right. —",
        "Ann plays “Foretell”.",
        "The dealer calls the suit: Attack (Betrayal: the effect is reversed).",
        "Bob takes 2 damage (attack): health 3.",
        "Ann gains 1 VP (Bob turned into a raven): 4 in all.",
        "Cy draws 1 Shadow magic card.",
    ]
    i18n.use("ru")
    assert nv.log_lines(view(LOG)) == [
        "— Раунд 2. Раздаёт Bob, передача направо. —",
        "Ann разыгрывает «Предсказание».",
        "Раздающий называет масть: Атака (Предательство: эффект обращён).",
        "Bob получает 2 повреждения (атака): здоровье 3.",
        "Ann получает 1 ПО (Bob обращён в ворона): всего 4.",
        "Cy берёт 1 карту магии Тени.",
    ]
    assert len(nv.log_lines(view(LOG * 40))) == nv.LOG_LINES


def test_the_summary_says_how_the_game_ended(english: None) -> None:
    won = view([], result={"e": "win_peck", "seat": 2})
    assert nv.result_line(won) == "Cy's peck turned every human into a raven — Cy wins!"
    i18n.use("ru")
    assert nv.result_line(won) == "Клевок Cy обратил всех людей в воронов — он побеждает!"
    assert nv.result_line(view([], result="")) == ""
