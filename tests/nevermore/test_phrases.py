"""The log's words: every event the engine logs has a phrase in both languages, every sentence
agrees with its numbers, and whole games read in English with no Russian sentence left (the
Russian phrases of whole games are checked bit for bit by the digests)."""

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
    """Every sentence agrees with its number, in English and in Russian (1, 21 → one form; 2–4,
    22–24 → another; 5–20, 11–14, 111 → the third)."""
    ru, en = ["Аня", "Боря"], ["Ann", "Bob"]
    counts = (1, 2, 5, 11, 21, 22)
    draws = [{"e": "draw_main", "seat": 0, "count": n} for n in counts]
    assert [render("nevermore", e, "en", en) for e in draws] == [
        f"Ann draws {n} card{'' if n == 1 else 's'} from the main deck." for n in counts
    ]
    assert [render("nevermore", e, "ru", ru) for e in draws] == [
        f"Аня берёт {n} из основной колоды."
        for n in ("1 карту", "2 карты", "5 карт", "11 карт", "21 карту", "22 карты")
    ]
    passes = [render("nevermore", {"e": "passed", "count": n}, "ru", ru) for n in (1, 3, 5)]
    assert passes == ["Передача по 1 карте.", "Передача по 3 карты.", "Передача по 5 карт."]
    magic = [{"e": "draw_magic", "seat": 1, "count": n, "pile": "light"} for n in (1, 2, 5)]
    assert [render("nevermore", e, "ru", ru) for e in magic] == [
        "Боря берёт 1 карту магии Света.",
        "Боря берёт 2 карты магии Света.",
        "Боря берёт 5 карт магии Света.",
    ]
    lost = {"e": "light_lost", "seat": 0, "count": 2}
    assert render("nevermore", lost, "ru", ru) == (
        "Аня сбрасывает 2 карты магии Света (Сияние обращено)."
    )
    damage = [
        {"e": "damage", "seat": 1, "amount": n, "why": "attack", "hp": 4 - n} for n in (1, 3, 5)
    ]
    assert [render("nevermore", e, "ru", ru) for e in damage] == [
        "Боря получает 1 повреждение (атака): здоровье 3.",
        "Боря получает 3 повреждения (атака): здоровье 1.",
        "Боря получает 5 повреждений (атака): здоровье -1.",
    ]
    heals = [{"e": "heal", "seat": 0, "amount": n, "hp": 4} for n in (1, 2, 5)]
    assert [render("nevermore", e, "ru", ru) for e in heals] == [
        "Аня восстанавливает 1 очко здоровья (4).",
        "Аня восстанавливает 2 очка здоровья (4).",
        "Аня восстанавливает 5 очков здоровья (4).",
    ]
    vp = {"e": "vp", "seat": 1, "amount": -2, "why": "spite", "total": 0}
    assert render("nevermore", vp, "ru", ru) == "Боря теряет 2 ПО (Злоба): всего 0."
    assert render("nevermore", vp, "en", en) == "Bob loses 2 VP (Spite): 0 in all."
    shown = {"e": "shown", "suit": "healing", "counts": [0, 3]}
    assert render("nevermore", shown, "ru", ru) == "Лечение: Боря 3."
    assert render("nevermore", {**shown, "counts": [0, 0]}, "en", en) == "Healing: nobody has any."


def test_no_russian_sentence_keeps_a_form_for_any_number() -> None:
    """No phrase falls back on a form that fits every number («карт(ы)»)."""
    events = [
        {"e": kind, "seat": 0, "to": 1, "source": 1, "count": n, "amount": n, "hp": 2}
        | {"pile": "light", "why": "attack", "total": n}
        for kind in ("passed", "draw_main", "draw_magic", "light_lost", "heal", "damage", "vp")
        for n in range(1, 30)
    ]
    said = [render("nevermore", e, "ru", ["Аня", "Боря"]) for e in events]
    assert not [line for line in said if "(ы)" in line or "(а)" in line]
    assert len(set(said)) == len(said)


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
