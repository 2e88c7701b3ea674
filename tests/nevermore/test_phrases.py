"""The log's words: every event the engine logs has a phrase in both languages, and whole games
read in English with no Russian sentence left (the Russian phrases themselves are checked bit for
bit by the digests, which were recorded from the engine's own sentences)."""

from __future__ import annotations

import re
from pathlib import Path

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.games.nevermore import NevermoreRules
from engine.games.nevermore.bot import HeuristicBot
from web.ui.phrases import nevermore, render, render_log

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC = re.compile("[а-яёА-ЯЁ]")
LOGGED = re.compile(r'\blog\(\s*g,\s*"(\w+)"')
FINISHED = re.compile(r'\bfinish\(\s*g,\s*[^,()]+,\s*"(\w+)"')


def logged_kinds() -> set[str]:
    """Every event kind the engine's code logs (``log(g, kind, ...)``, ``finish(g, who, kind)``)."""
    kinds: set[str] = set()
    for path in (ROOT / "engine/games/nevermore").glob("*.py"):
        text = path.read_text("utf-8")
        kinds |= set(LOGGED.findall(text)) | set(FINISHED.findall(text))
    return kinds


def test_every_logged_event_has_a_russian_and_an_english_phrase() -> None:
    kinds = logged_kinds()
    assert len(kinds) >= 65
    assert {"start", "round", "win_vp", "win_peck", "round_limit"} <= kinds
    assert kinds == set(nevermore.RU) == set(nevermore.EN)


def test_numbers_in_the_sentences() -> None:
    """English agrees with its number; the Russian sentences keep the forms the game has always
    logged (the digests hold them), whatever the number."""
    ru, en = ["Аня", "Боря"], ["Ann", "Bob"]
    draws = [{"e": "draw_main", "seat": 0, "count": n} for n in (1, 2, 5)]
    assert [render("nevermore", e, "en", en) for e in draws] == [
        "Ann draws 1 card from the main deck.",
        "Ann draws 2 cards from the main deck.",
        "Ann draws 5 cards from the main deck.",
    ]
    assert [render("nevermore", e, "ru", ru) for e in draws] == [
        f"Аня берёт {n} карт(ы) из основной колоды." for n in (1, 2, 5)
    ]
    lost = {"e": "vp", "seat": 1, "amount": -2, "why": "spite", "total": 0}
    assert render("nevermore", lost, "ru", ru) == "Боря теряет 2 ПО (Злоба): всего 0."
    assert render("nevermore", lost, "en", en) == "Bob loses 2 VP (Spite): 0 in all."
    shown = {"e": "shown", "suit": "healing", "counts": [0, 3]}
    assert render("nevermore", shown, "ru", ru) == "Лечение: Боря 3."
    assert render("nevermore", {**shown, "counts": [0, 0]}, "en", en) == "Healing: nobody has any."


def test_whole_games_read_in_both_languages() -> None:
    rules = NevermoreRules()
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    seen: set[str] = set()
    for seed in range(6):
        n = 3 + seed % 3
        config = {"seats": n, "names": names[:n], "max_rounds": 6}
        table = LocalTable(rules, config, seed=seed)
        bots = {s: (HeuristicBot() if s % 2 else RandomBot(seed * 7 + s)).choose for s in range(n)}
        table.play(bots)
        g = rules.data(table.state)
        assert all(isinstance(e, dict) and isinstance(e["e"], str) for e in g["log"])
        seen |= {e["e"] for e in g["log"]}
        russian = render_log("nevermore", g["log"], "ru", g["names"])
        english = render_log("nevermore", g["log"], "en", g["names"])
        assert len(russian) == len(english) == len(g["log"]) > 50
        assert all(CYRILLIC.search(line) for line in russian)
        assert not [line for line in english if CYRILLIC.search(line)]
        assert g["result"] == g["log"][-1]
    assert len(seen) >= 25
    assert render("nevermore", "a plain line") == "a plain line"
