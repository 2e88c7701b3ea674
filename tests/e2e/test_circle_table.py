"""«Волшебный круг» at the table: three browsers and a server bot play a whole game in real time.

Every page plays through its own hand with a key press whenever the spell flies at it (while it
still has a few cards), the server bot answers after its reaction time, and spells land when the
quiet countdown runs out. One page is phone-sized. At the end every page's fairness audit passes,
all pages agree on the table, and the winner (or nobody) is the same everywhere.
"""

from __future__ import annotations

import json

import pytest

from .circle_driver import blow_away, start_circle, table_state
from .harness import Player, chromium, signaling_server
from .table_driver import play_until, say_ready, seat_players

pytestmark = pytest.mark.browser

COUNTDOWN = 2


async def test_three_browsers_and_a_bot_play_a_whole_game_in_real_time() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            phone = {"width": 390, "height": 844}
            names = ["Аня", "Боря", "Вера"]
            players = await seat_players(browser, server, names, viewports={"Вера": phone})
            anya, vera = players[0], players[2]
            await say_ready(players)
            await start_circle(anya, COUNTDOWN)
            for player in players:
                await player.page.wait_for_selector("#circle", timeout=90_000)

            pressed = 0
            shot = False

            async def act(player: Player) -> None:
                nonlocal pressed, shot
                state = await table_state(player)
                pressed += await blow_away(player, state)
                if not shot and (state.get("spell") or {}).get("changes", 0) >= 2:
                    shot = True
                    await player.screenshot("circle-spell-in-flight")

            await play_until(
                players, lambda s: s["stage"] == "done", state=table_state, act=act, timeout=420
            )
            for player in players[1:]:  # the last entry reaches the others a moment later
                await player.page.wait_for_selector('#table-status[data-stage="done"]')

            await anya.screenshot("circle-result")
            await vera.screenshot("circle-phone")
            finals = [await table_state(p) for p in players]
            assert {f["digest"] for f in finals} == {finals[0]["digest"]}
            assert len({json.dumps(f["winner"]) for f in finals}) == 1
            for final, player in zip(finals, players, strict=True):
                assert final["over"], (player.name, final)
                assert final["result"] == {"ok": True, "blame": {}}, (player.name, final)
                assert not final["errors"], (player.name, final["errors"])
                assert not player.errors, (player.name, player.errors)
            assert pressed >= 3, "the pages played cards with the keyboard"
            log = " ".join(finals[0]["log"])
            assert "побеждает" in log or "победителей нет" in log
            winner = finals[0]["winner"]
            banner = await anya.page.inner_text("#circle-result")
            assert ("победителей нет" in banner) if winner is None else ("Побеждает" in banner)
            scroll = await vera.page.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert scroll <= 0, "no sideways scroll on a phone"
