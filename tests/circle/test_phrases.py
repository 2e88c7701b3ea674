"""The log's words: every event the engine logs has a phrase in both languages, Russian numbers
agree, and a whole game reads in English with no Russian sentence left."""

from __future__ import annotations

import re
from pathlib import Path

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.games.circle.rules import CircleRules
from web.ui.phrases import circle, plural, render, render_log

ROOT = Path(__file__).resolve().parents[2]


def logged_kinds() -> set[str]:
    """Every event kind the engine's code logs."""
    kinds: set[str] = set()
    for path in (ROOT / "engine/games/circle").glob("*.py"):
        kinds |= set(re.findall(r'"e": "(\w+)"', path.read_text("utf-8")))
    return kinds


def test_every_logged_event_has_a_russian_and_an_english_phrase() -> None:
    kinds = logged_kinds()
    assert len(kinds) >= 20
    assert kinds <= set(circle.RU) and set(circle.RU) == set(circle.EN)


def test_russian_numbers_agree() -> None:
    forms = ("карта", "карты", "карт")
    said = [plural.ru(n, *forms) for n in (1, 2, 5, 11, 12, 21, 22, 25, 111, 101)]
    assert said == [
        "1 карта", "2 карты", "5 карт", "11 карт", "12 карт", "21 карта", "22 карты", "25 карт",
        "111 карт", "101 карта",
    ]  # fmt: skip
    assert plural.en(1, "card", "cards") == "1 card" and plural.en(3, "card", "cards") == "3 cards"


def test_a_whole_game_reads_in_both_languages() -> None:
    rules = CircleRules()
    table = LocalTable(rules, {"seats": 5, "names": ["Аня", "Борис", "Вера", "Гоша", "Даня"]})
    table.play({s: RandomBot(s).choose for s in range(5)})
    g = table.state["g"]
    russian = render_log("circle", g["log"], "ru", g["names"])
    english = render_log("circle", g["log"], "en", g["names"])
    assert len(russian) == len(english) == len(g["log"]) > 10
    cyrillic = re.compile("[а-яёА-ЯЁ]")
    names = re.compile("|".join(g["names"]))
    assert all(cyrillic.search(names.sub("", line)) for line in russian)
    assert not any(cyrillic.search(names.sub("", line)) for line in english)
    assert render("circle", "a plain line") == "a plain line"
