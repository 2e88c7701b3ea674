"""The deck as the issue asks: counts, spread, named cards, generated text, art, packaging."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from engine.games.rumble.cards import (
    CatalogError,
    load_catalog,
    packaged_catalog_text,
    parse_catalog,
)
from engine.games.rumble.listing import entries
from engine.games.rumble.text import op_text, spell_name

ROOT = Path(__file__).resolve().parents[2]
CAT = load_catalog()


def test_packaged_catalog_equals_the_seed() -> None:
    assert packaged_catalog_text() == (ROOT / "seeds/rumble/catalog.json").read_text("utf-8")


def test_component_deck_is_45_distinct_cards_twice_plus_7_wild() -> None:
    components = {k: v for k, v in CAT.spells.items() if k != "wild"}
    assert len(components) == 45
    assert all(card["count"] == 2 for card in components.values())
    assert CAT.spells["wild"]["count"] == 7
    assert len(CAT.spell_deck()) == 97


def test_every_school_has_three_cards_of_each_slot() -> None:
    spread = Counter((c["school"], c["slot"]) for k, c in CAT.spells.items() if k != "wild")
    assert len(CAT.schools) == 5
    assert set(spread.values()) == {3}
    assert len(spread) == 15


def test_deliveries_have_initiative_creatures_and_boosted_sources_exist() -> None:
    deliveries = [c for c in CAT.spells.values() if c.get("slot") == "delivery"]
    assert all(isinstance(c["initiative"], int) for c in deliveries)
    assert sum(1 for c in deliveries if c.get("creature")) >= 3
    assert sum(1 for c in CAT.spells.values() if c.get("boost")) >= 2
    assert sum(1 for c in CAT.spells.values() if c.get("surprise")) >= 2


def test_treasures_ghosts_and_diseases_counts_and_named_kinds() -> None:
    assert len(CAT.treasure_pile()) == 25
    assert len(CAT.ghost_pile()) == 25
    assert len(CAT.diseases) == 10 and len(CAT.disease_bag()) == 20
    names = {c["name"] for c in CAT.diseases.values()}
    assert {"Гепатит Ы", "Ведьмины бородавки", "Трындецит"} <= names
    kinds = CAT.diseases.values()
    assert any(c.get("eternal") for c in kinds)
    assert any(c.get("end_turn") for c in kinds)
    assert any(c.get("sign") for c in kinds)
    treasures = CAT.treasures.values()
    assert any(t.get("power") for t in treasures)
    assert {t["sign"] for t in treasures if t.get("sign")} == set(CAT.schools)
    assert any(t["name"] == "Чешуйчатый плащ" and t.get("cloak") for t in treasures)
    assert any(t["kind"] == "active" for t in treasures)
    ghosts = CAT.ghosts.values()
    assert any(g["when"] == "now" for g in ghosts) and any(g["when"] == "next" for g in ghosts)
    assert len(CAT.heroes) == 8
    assert {"palace", "surprise"} <= set(CAT.specials)


def test_spell_names_agree_in_gender() -> None:
    s = CAT.spells
    assert (
        spell_name(
            [
                (s["q_spark_sparkling"], "quality"),
                (s["d_spark_thunderbolt"], "delivery"),
                (s["src_spark_lord"], "source"),
            ]
        )
        == "Искрящийся Громовой Разряд от Лорда Искр"
    )
    assert spell_name([(s["q_storm_icy"], "quality"), (s["d_spark_salamander"], "delivery")]) == (
        "Ледяная Огненная Саламандра"
    )
    assert spell_name([(s["q_storm_icy"], "quality"), (s["d_storm_shards"], "delivery")]) == (
        "Ледяные Осколки Града"
    )


def test_every_text_is_generated_from_its_effect() -> None:
    listing = entries()
    assert all(entry["text"] for entry in listing)
    by_id = {e["id"]: e for e in listing}
    assert "2 урона левому врагу" in by_id["src_spark_lord"]["text"]
    assert "Инициатива 17" in by_id["d_spark_thunderbolt"]["text"]
    assert "Тварь" in by_id["d_spark_salamander"]["text"]
    assert "Нежданчик" in by_id["q_storm_icy"]["text"]
    assert "сбросив 1 карту с руки: нанесите 2 урона" in by_id["t_thunder_stick"]["text"]


def test_every_card_and_hero_has_a_distinct_legible_illustration() -> None:
    digests = set()
    for entry in entries():
        path = ROOT / entry["art"]
        text = path.read_text("utf-8")
        root = ET.fromstring(text)
        assert root.tag.endswith("svg")
        assert entry["name"].split()[0] in text
        digests.add(hashlib.sha256(text.encode()).hexdigest())
    assert len(digests) == len(entries())


def test_catalog_rejects_malformed_cards() -> None:
    raw = json.loads(packaged_catalog_text())
    raw["spells"][0]["effect"] = [{"op": "explode"}]
    with pytest.raises(CatalogError):
        parse_catalog(raw)
    raw = json.loads(packaged_catalog_text())
    raw["spells"].append(dict(raw["spells"][0]))
    with pytest.raises(CatalogError):
        parse_catalog(raw)


def test_catalog_cli_lists_every_card_as_json() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "engine.catalog", "rumble", "--json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    data = json.loads(out.stdout)
    assert sum(e["count"] for e in data if e["deck"] == "spells") == 97
    thunder = next(e for e in data if e["id"] == "d_spark_thunderbolt")
    assert {"deck", "id", "name", "count", "text", "art", "slot", "school", "initiative"} <= set(
        thunder
    )
    assert sum(1 for e in data if e["deck"] == "heroes") == 8
    bad = subprocess.run(
        [sys.executable, "-m", "engine.catalog", "chess"], capture_output=True, cwd=ROOT
    )
    assert bad.returncode == 2


def test_catalog_cli_lists_every_registered_game() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "engine.catalog", "--json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    data = json.loads(out.stdout)
    assert "rumble" in data and len(data["rumble"]) == len(entries())
    for cards in data.values():
        assert all({"deck", "id", "name", "count", "text", "art"} <= set(c) for c in cards)


def test_card_texts_read_unambiguously() -> None:
    """An extra effect inside a band belongs to that band; plural targets say «каждой цели»;
    an infection roll says who rolls and on what; «Нежданчик» speaks of this card."""
    by_id = {e["id"]: e["text"] for e in entries()}
    assert "10+: нанесите 4 урона цели и получите 1 урон." in by_id["q_spark_scorching"]
    assert "10+: нанесите 3 урона цели и возьмите 1 сокровище." in by_id["src_storm_skipper"]
    assert "5–9: нанесите 2 урона цели и восстановите 2 жизни;" in by_id["q_gloom_grave"]
    assert (
        "Могучий бросок, цели — все враги. 1–4: нанесите 1 урон каждой цели;"
        in (by_id["q_storm_stormy"])
    )
    assert "каждая цель бросает d6 на заражение: при 1–2 тянет ЗПМП" in by_id["d_gloom_cloud"]
    assert "Каждый враг бросает d6 на заражение: при 1 тянет ЗПМП" in by_id["src_gloom_mourner"]
    assert "Вылечите одну свою ЗПМП на выбор" in by_id["src_thicket_mother"]
    assert "Передайте одну свою ЗПМП на выбор правому врагу" in by_id["q_gloom_contagious"]
    surprise = by_id["q_storm_icy"]
    assert "эта карта" in surprise and "заклинании" not in surprise
    for cid, text in by_id.items():
        assert "цель тянет" not in text and "на 1 цель" not in text, cid
    for cid, card in CAT.spells.items():
        for op in card.get("effect", []):
            if op["op"] == "power":
                bands = op_text(op).split(". ", 1)[1]  # after «Могучий бросок, цель — …»
                assert ". " not in bands and bands.count("; ") == 2, (cid, bands)
