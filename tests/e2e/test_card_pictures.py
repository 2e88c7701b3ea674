"""Card pictures in a real page: the catalog shows every card's bitmap in the page's language, at
the card's own size on a screen of one pixel per point and at twice it on a denser one, and every
picture loads."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import Player, chromium, signaling_server

pytestmark = pytest.mark.browser

PICTURES = """() => [...document.querySelectorAll('#catalog img')].map((img) =>
  [new URL(img.src).pathname, img.complete ? img.naturalWidth : -1])"""
LOADED = """() => [...document.querySelectorAll('#catalog img')].every((img) => img.complete)"""


async def catalog_pictures(player: Player) -> list[Any]:
    await player.page.click('nav button[data-action="catalog"]')
    await player.page.wait_for_selector("#catalog img")
    await player.page.wait_for_function(LOADED)
    pictures: list[Any] = await player.page.evaluate(PICTURES)
    await player.page.click('#overlay button[data-action="close-overlay"]')
    return pictures


@pytest.mark.parametrize(("density", "ending", "width"), [(1, ".webp", 200), (2, "@2x.webp", 400)])
async def test_the_catalog_shows_bitmaps_for_the_screen_and_language(
    density: int, ending: str, width: int
) -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            anya = await Player.open(
                browser, server.origin + "/", "Аня", voice=False, device_scale_factor=density
            )
            russian = await catalog_pictures(anya)
            assert len(russian) > 50
            for path, natural in russian:
                assert path.startswith("/art/rumble/") and path.endswith(ending), path
                assert ".en" not in path and natural == width, (path, natural)
            await anya.page.click('nav button[data-lang="en"]')
            english = await catalog_pictures(anya)
            wanted = [path.replace(ending, ".en" + ending) for path, _ in russian]
            assert [path for path, _ in english] == wanted
            assert all(natural == width for _, natural in english), english[:3]
            assert not anya.errors, anya.errors
