"""«Схватка» on phone-sized screens (390×844): two players and a bot play one fight to the end."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from .harness import chromium, signaling_server
from .rumble_driver import play_until, setup_lobby, start_rumble, table_state
from .table_driver import seat_players

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
NO_SIDEWAYS_SCROLL = "() => document.scrollingElement.scrollWidth <= window.innerWidth + 1"


DOCK = """(where) => {
  window.scrollTo(0, where === "end" ? document.scrollingElement.scrollHeight : 0);
  const dock = document.querySelector("#table .dock").getBoundingClientRect();
  const last = document.getElementById("app").getBoundingClientRect();
  return {top: dock.top, bottom: dock.bottom, height: innerHeight, lastBottom: last.bottom,
          pad: parseFloat(getComputedStyle(document.body).paddingBottom)};
}"""


async def hand_stays_on_screen(page: Page) -> None:
    """The dock (hand and prompt) is on screen at the top and at the end of the page, and at the
    end the page's content ends above it (room was kept for it)."""
    await page.wait_for_function(
        "() => parseFloat(getComputedStyle(document.body).paddingBottom) > 40"
    )
    for where in ("top", "end"):
        box = await page.evaluate(DOCK, where)
        assert abs(box["bottom"] - box["height"]) <= 1, (where, box)
        assert 40 < box["bottom"] - box["top"] <= 0.6 * box["height"], (where, box)
        if where == "end":
            assert box["lastBottom"] <= box["top"] + 1, box


async def test_one_fight_on_phone_screens() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            names = ["Аня", "Боря"]
            viewports = dict.fromkeys(names, PHONE)
            players = await seat_players(browser, server, names, viewports=viewports)
            await setup_lobby(players)
            await start_rumble(players[0], "tournament", 1, 20, 20)
            await play_until(players, lambda s: s["casting"], timeout=180)
            await players[1].screenshot("rumble-phone-mid-fight")
            assert await players[1].page.evaluate(NO_SIDEWAYS_SCROLL)
            for player in players:
                await hand_stays_on_screen(player.page)
            await play_until(players, lambda s: s["stage"] == "done", timeout=600)
            await players[0].page.wait_for_selector("#summary")
            await players[0].screenshot("rumble-phone-summary")
            for player in players:
                final = await table_state(player)
                assert final["result"] == {"ok": True, "blame": {}}, final
                assert final["fight"] == 1
                assert await player.page.evaluate(NO_SIDEWAYS_SCROLL)
                assert not player.errors, (player.name, player.errors)
