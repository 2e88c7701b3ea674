"""«Схватка» on phone-sized screens (390×844): two players and a bot play one fight to the end."""

from __future__ import annotations

import pytest

from .feel_driver import hand_stays_on_screen
from .harness import chromium, signaling_server
from .rumble_driver import mid_fight, play_until, setup_lobby, start_rumble, table_state
from .table_driver import seat_players

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
NO_SIDEWAYS_SCROLL = "() => document.scrollingElement.scrollWidth <= window.innerWidth + 1"


async def test_one_fight_on_phone_screens() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            names = ["Аня", "Боря"]
            viewports = dict.fromkeys(names, PHONE)
            players = await seat_players(browser, server, names, viewports=viewports)
            await setup_lobby(players)
            await start_rumble(players[0], "tournament", 1, 20, 20)
            await play_until(players, mid_fight, timeout=180)
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
