"""Catalog data (seed copy equals the packaged copy, deck sizes, texts, art) and the two CLIs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.games.nevermore.cards import load_catalog
from engine.games.nevermore.listing import entries

ROOT = Path(__file__).resolve().parents[2]


def test_packaged_catalog_equals_the_seed() -> None:
    seed = (ROOT / "seeds/nevermore/catalog.json").read_text(encoding="utf-8")
    packaged = (ROOT / "engine/games/nevermore/catalog.json").read_text(encoding="utf-8")
    assert seed == packaged


def test_decks_and_texts() -> None:
    cat = load_catalog()
    assert sorted(set(cat.deck("main"))) == ["attack", "healing", "radiance", "raven", "victory"]
    assert all(cat.deck("main").count(s) == 12 for s in set(cat.deck("main")))
    assert len(cat.deck("light")) == len(cat.deck("shadow")) == 25
    for cid, card in cat.magic.items():
        assert card["window"] in cat.windows, cid
        assert any("а" <= ch <= "я" for ch in card["text"].lower()), cid
    split = [cid for cid, c in cat.magic.items() if "raven_text" in c]
    assert {
        "aid",
        "bolster",
        "heal",
        "foretell",
        "renew",
        "punish",
        "retribution",
        "spite",
        "summon",
    } <= set(split)


def test_art_exists_for_every_entry_and_is_deterministic() -> None:
    for entry in entries():
        assert (ROOT / entry["art"]).is_file(), entry["id"]
    for suit in ("attack", "healing", "radiance", "victory", "raven"):
        assert (ROOT / f"seeds/nevermore/art/icon_{suit}.svg").is_file()
    for token in ("attack", "healing", "radiance", "victory", "flock", "skulk"):
        assert (ROOT / f"seeds/nevermore/art/token_{token}.svg").is_file()
    arts = {(ROOT / e["art"]).read_text() for e in entries()}
    assert len(arts) == len(entries())


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_catalog_cli_lists_the_cards() -> None:
    out = _run("engine.catalog", "nevermore", "--json")
    assert out.returncode == 0
    data = json.loads(out.stdout)
    assert sum(e["count"] for e in data) == 110


def test_scenario_cli_good_and_bad_input(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    hands = [["attack"] * 3 + ["victory"] * 2, ["healing"] * 5, ["radiance"] * 5]
    good.write_text(json.dumps({"players": [{"hand": h} for h in hands]}))
    out = _run("engine.games.nevermore.scenario", str(good))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["round"] >= 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"players": [{"hand": ["attack"]}]}))
    out = _run("engine.games.nevermore.scenario", str(bad))
    assert out.returncode == 2 and "ошибка сценария" in out.stderr
    out = _run("engine.games.nevermore.scenario", str(tmp_path / "missing.json"))
    assert out.returncode == 2


def test_scenario_cli_help_prints_the_usage() -> None:
    for flag in ("--help", "-h"):
        out = _run("engine.games.nevermore.scenario", flag)
        assert out.returncode == 0, out.stderr
        assert "использование: python -m engine.games.nevermore.scenario FILE.json" in out.stdout
        assert "не найден" not in out.stderr


def test_a_scripted_1_does_not_match_true_nor_true_a_seat() -> None:
    import pytest

    from engine.core.scenario import ScenarioError
    from engine.games.nevermore.scenario import run_scenario

    raven = {
        "players": [
            {"name": "Ворон", "hand": ["attack"] * 3 + ["radiance"] * 2, "raven": True},
            {"name": "Б", "hand": ["attack", "attack", "victory", "victory", "radiance"]},
            {"name": "В", "hand": ["radiance", "victory", "healing", "healing", "radiance"]},
        ]
    }
    with pytest.raises(ScenarioError):  # the peck question is true/false, not 1
        run_scenario({**raven, "moves": [{"seat": 0, "phase": "choose", "pick": 1}]})
    assert run_scenario({**raven, "moves": [{"seat": 0, "phase": "choose", "pick": True}]})
    nicole = {
        "players": [
            {"hand": ["attack", "attack", "attack", "radiance", "radiance"]},
            {"hand": ["attack", "radiance", "radiance", "victory", "victory"]},
            {"hand": ["radiance", "radiance", "victory", "healing", "healing"]},
        ]
    }
    with pytest.raises(ScenarioError):  # an attack target is a seat, not true
        run_scenario({**nicole, "moves": [{"seat": 0, "phase": "choose", "pick": True}]})
