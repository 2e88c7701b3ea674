"""The log's words: every event the engine logs has a phrase in both languages, and whole games
read in English with no Russian sentence left (the Russian phrases themselves are checked bit for
bit by the digests, which were recorded from the engine's own sentences)."""

from __future__ import annotations

import re
from pathlib import Path

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.games.rumble import RumbleRules
from web.ui.phrases import render, render_log, rumble

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC = re.compile("[а-яёА-ЯЁ]")


def logged_kinds() -> set[str]:
    """Every event kind the engine's code logs."""
    kinds: set[str] = set()
    for path in (ROOT / "engine/games/rumble").glob("*.py"):
        kinds |= set(re.findall(r'self\.log\(\s*g,\s*"(\w+)"', path.read_text("utf-8")))
    return kinds


def test_every_logged_event_has_a_russian_and_an_english_phrase() -> None:
    kinds = logged_kinds()
    assert len(kinds) >= 55
    assert kinds == set(rumble.RU) == set(rumble.EN)


def test_russian_numbers_agree_in_the_sentences() -> None:
    names = ["Аня", "Боря"]
    said = [render("rumble", {"e": "seal", "seat": 0, "count": n}, "ru", names) for n in (1, 2, 5)]
    assert said == [
        "Аня запечатывает 1 карту.",
        "Аня запечатывает 2 карты.",
        "Аня запечатывает 5 карт.",
    ]
    queue = {"e": "queue", "queue": [[1, 1], [0, 3]]}
    assert render("rumble", queue, "ru", names) == "Очередь: Боря (1 карта), Аня (3 карты)."
    assert render("rumble", queue, "en", ["Ann", "Bob"]) == "Order: Bob (1 card), Ann (3 cards)."
    hurt = {"e": "hurt", "seat": 1, "amount": 1, "by": 0, "life": 21}
    assert render("rumble", hurt, "ru", names) == "Боря получает 1 урон (бьёт Аня): жизней 21."
    assert (
        render("rumble", hurt, "en", ["Ann", "Bob"])
        == "Bob takes 1 damage from Ann: 21 lives left."
    )


def test_whole_games_read_in_both_languages() -> None:
    rules = RumbleRules()
    seen: set[str] = set()
    for seed in range(4):
        table = LocalTable(rules, {"seats": 4}, seed=seed)
        table.play({s: RandomBot(seed * 7 + s).choose for s in range(4)})
        g = table.state["g"]
        seen |= {e["e"] for e in g["log"]}
        russian = render_log("rumble", g["log"], "ru", g["names"])
        english = render_log("rumble", g["log"], "en", g["names"])
        assert len(russian) == len(english) == len(g["log"]) > 50
        names = re.compile("|".join(re.escape(n) for n in g["names"]))
        assert all(CYRILLIC.search(names.sub("", line)) for line in russian)
        assert not [line for line in english if CYRILLIC.search(names.sub("", line))]
    assert len(seen) >= 30
    assert render("rumble", "a plain line") == "a plain line"
