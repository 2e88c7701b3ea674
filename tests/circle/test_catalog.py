"""The cards: counts, keywords, texts, art files, the catalog listing and its packaging."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from engine.games.circle.cards import (
    EFFECTS,
    KEYWORDS,
    CatalogError,
    load_catalog,
    packaged_catalog_text,
    parse_catalog,
)
from engine.games.circle.listing import entries, spell_text

ROOT = Path(__file__).resolve().parents[2]
CAT = load_catalog()


def test_packaged_catalog_equals_the_seed() -> None:
    assert packaged_catalog_text() == (ROOT / "seeds/circle/catalog.json").read_text("utf-8")


def test_spell_deck_has_20_to_30_spells_with_power_1_to_3_and_the_seeds_fire() -> None:
    deck = CAT.spell_deck()
    assert 20 <= len(deck) <= 30
    assert {c["power"] for c in CAT.spells.values()} == {1, 2, 3}
    fire = CAT.spells["fire"]
    assert (fire["name"], fire["power"], fire["keyword"]) == ("ОГОНЬ", 1, "fan")
    assert CAT.keywords["fan"]["name"] == "РАЗДУВАНИЕ"
    assert any(c["keyword"] is None for c in CAT.spells.values())


def test_every_keyword_is_implemented_explained_and_on_a_spell() -> None:
    assert set(CAT.keywords) == set(KEYWORDS) and len(KEYWORDS) == 8
    used = {c["keyword"] for c in CAT.spells.values()}
    assert set(KEYWORDS) <= used
    assert all(kw["text"].endswith(".") and kw["name"].isupper() for kw in CAT.keywords.values())


def test_action_deck_is_mostly_winds_with_dispels_and_tricks() -> None:
    deck = CAT.action_deck()
    assert 40 <= len(deck) <= 50
    effects = Counter(CAT.effect(c) for c in deck)
    winds = effects["wind_left"] + effects["wind_right"] + effects["wind_any"]
    assert winds > len(deck) / 2
    assert effects["dispel"] >= 4
    assert {e for e in effects if effects[e]} == set(EFFECTS)


def test_left_and_right_winds_share_a_name_but_not_their_art() -> None:
    left, right, every = (CAT.actions[c] for c in ("wind_left", "wind_right", "wind_all"))
    assert left["name"] == right["name"] == every["name"] == "ВЕТЕР"
    assert (left["direction"], right["direction"]) == ("влево", "вправо")
    assert every["direction"] == "во все стороны"
    assert CAT.actions["dispel"]["name"] == "РАССЕИВАНИЕ"
    arts = [(ROOT / c["art"]).read_bytes() for c in (left, right, every)]
    assert len(set(arts)) == 3
    assert "влево" in arts[0].decode() and "вправо" in arts[1].decode()


def test_every_card_has_id_deck_name_text_and_a_distinct_svg() -> None:
    listing = entries()
    assert len(listing) == len(CAT.spells) + len(CAT.actions)
    pictures = set()
    for e in listing:
        assert e["deck"] in ("spells", "actions") and e["id"] and e["name"] and e["text"]
        assert e["count"] >= 1
        path = ROOT / e["art"]
        ET.parse(path)
        pictures.add(path.read_bytes())
    assert len(pictures) == len(listing)


def test_art_is_regenerated_byte_for_byte() -> None:
    spec = importlib.util.spec_from_file_location("make_art", ROOT / "seeds/circle/make_art.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    raw = json.loads((ROOT / "seeds/circle/catalog.json").read_text("utf-8"))
    for card in raw["spells"]:
        assert module.spell_svg(card, raw["keywords"]) == (ROOT / card["art"]).read_text("utf-8")
    for card in raw["actions"]:
        assert module.action_svg(card) == (ROOT / card["art"]).read_text("utf-8")


def test_catalog_command_lists_the_cards_as_json() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "engine.catalog", "circle", "--json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    listed = json.loads(out.stdout)
    assert sum(e["count"] for e in listed if e["deck"] == "spells") == len(CAT.spell_deck())
    assert sum(e["count"] for e in listed if e["deck"] == "actions") == len(CAT.action_deck())
    assert {e["id"] for e in listed} == set(CAT.spells) | set(CAT.actions)


@pytest.mark.parametrize(
    "change",
    [
        lambda raw: raw["spells"][0].update(power=4),
        lambda raw: raw["spells"][0].update(keyword="sleep"),
        lambda raw: raw["actions"][0].update(effect="teleport"),
        lambda raw: raw["actions"].append(dict(raw["actions"][0])),
        lambda raw: raw["keywords"].pop("fan"),
    ],
)
def test_a_malformed_catalog_is_refused(change: object) -> None:
    raw = json.loads(packaged_catalog_text())
    change(raw)  # type: ignore[operator]
    with pytest.raises(CatalogError):
        parse_catalog(raw)


def test_every_spell_text_says_its_power_and_keyword() -> None:
    for card in CAT.spells.values():
        assert card["text"] == spell_text(CAT, card)
        assert card["deck"] == "spells"
    assert all(card["deck"] == "actions" for card in CAT.actions.values())
