"""The catalog and rules pages: every game's cards with existing art, filters, game switches."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.catalog import entries_for
from web.ui import pages

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", ["rumble", "circle", "nevermore"])
def test_the_catalog_shows_every_card_of_a_game_with_its_picture(game: str) -> None:
    html = pages.catalog(game)
    listed = entries_for(game)
    assert html.count('class="catalog-card"') == len(listed)
    urls = re.findall(r'<img src="(/art/[^"]+)"', html)
    assert len(urls) == len(listed)
    for url in urls:
        _, _, folder, name = url.split("/")
        source = name.removesuffix(".webp") + ".svg"  # its bitmap is drawn from it (test_build)
        assert folder == game and (ROOT / "seeds" / game / "art" / source).is_file(), url
    assert f'data-key="{game}" aria-pressed="true"' in html


def test_filters_narrow_the_catalog_and_unknown_games_fall_back() -> None:
    spells = pages.catalog("circle", deck="spells")
    every = [e for e in entries_for("circle") if e["deck"] == "spells"]
    assert spells.count('class="catalog-card"') == len(every) > 0
    assert f"копий: {sum(e['count'] for e in every)}" in spells
    assert "Школа" not in spells, "«Волшебный круг» has no schools"
    assert "Школа" in pages.catalog("rumble")
    assert pages.catalog("<script>") == pages.catalog("rumble")


@pytest.mark.parametrize(
    ("game", "needle"),
    [("rumble", "Схватк"), ("circle", "РАССЕИВАНИЕ"), ("nevermore", "ворон")],
)
def test_each_game_has_its_rules_page_with_a_switch(game: str, needle: str) -> None:
    html = pages.rules(game)
    assert needle in html
    assert f'data-game="{game}" aria-pressed="true"' in html
    assert html.count('data-action="rules"') == 3
