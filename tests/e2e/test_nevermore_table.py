"""«Невермор» at the table: three browsers (one phone-sized) and a server bot play a whole game.

Everything goes over WebRTC through the real signalling server. The host picks «Невермор» in the
lobby and adds the bot; every page plays through its own UI (in the draft it selects the first
cards of its hand and confirms the pass; elsewhere it takes the first offered option). Passes are
private: after the first pass a page does not know the cards its neighbour received from someone
else. At the end every page's fairness audit passes and all pages agree on the table's digest.
Screenshots of the draft, the resolution and the summary go to test-artifacts/.
"""

from __future__ import annotations

import asyncio

import pytest

from .harness import Player, chromium, signaling_server
from .nevermore_driver import play_until, start_nevermore, table_state
from .table_driver import count, say_ready, seat_players

pytestmark = pytest.mark.browser

TIMER = 20
PHONE = {"width": 390, "height": 844}
NO_SIDEWAYS_SCROLL = "() => document.scrollingElement.scrollWidth <= window.innerWidth + 1"


async def test_three_browsers_and_a_bot_play_a_whole_game() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            players = await seat_players(
                browser, server, ["Аня", "Боря", "Вера"], viewports={"Боря": PHONE}
            )
            anya, borya, vera = players
            await say_ready(players)
            await start_nevermore(anya, TIMER)

            # Everyone selects and confirms the first pass; then nobody acts for a moment.
            everyone = frozenset(p.name for p in players)
            # Аня waits meanwhile: her page must not have picked (or passed) on its own. The page
            # draws the pass a moment after its table reaches it; until then a hand card opens
            # the card pane instead of selecting it.
            await play_until(
                players,
                lambda s: s["phase"] == "pass_commit",
                timeout=120,
                idle=frozenset({"Аня"}),
            )
            await anya.page.click(
                '#hand button.hand-card[data-action="pick"][aria-pressed="false"]'
            )
            await anya.page.wait_for_selector("#hand .hand-card.selected")
            await anya.screenshot("nevermore-draft")
            state = await play_until(players, lambda s: count(s, "Передача по") >= 1, timeout=120)
            await play_until(players, lambda s: s["phase"] != "pass_open", idle=everyone)
            # Seat 1 (Боря) got his cards from seat 0 (Аня): Вера never sees them, Боря knows all
            # (once Аня's private delivery of the keys has reached him).
            for _ in range(100):
                seen = await table_state(borya)
                if set(seen["hands"][1]) <= set(seen["known"]):
                    break
                await asyncio.sleep(0.1)
            assert set(seen["hands"][1]) <= set(seen["known"]), seen
            by_vera = await table_state(vera)
            assert not set(by_vera["hands"][1]) & set(by_vera["known"]), by_vera
            assert await borya.page.evaluate(NO_SIDEWAYS_SCROLL)
            await borya.screenshot("nevermore-phone-draft")

            shots: set[str] = set()

            async def screenshots(player: Player, phase: str) -> None:
                page = player.page
                if "resolution" not in shots and await page.query_selector("#nm-called"):
                    shots.add("resolution")
                    await page.keyboard.press("Escape")
                    await player.screenshot("nevermore-resolution")
                if "magic" not in shots and await page.query_selector("#moves .move.play"):
                    shots.add("magic")
                    await page.keyboard.press("Escape")  # close the card pane
                    await player.screenshot("nevermore-magic-prompt")

            state = await play_until(
                players, lambda s: s["stage"] == "done", timeout=420, on_phase=screenshots
            )
            await anya.page.wait_for_selector("#summary")
            await anya.page.keyboard.press("Escape")
            await anya.screenshot("nevermore-summary")
            await borya.page.wait_for_selector("#summary")
            await borya.screenshot("nevermore-phone-summary")
            assert "resolution" in shots

            for player in players[1:]:  # the last entry reaches the others a moment later
                await player.page.wait_for_selector('#table-status[data-stage="done"]')
            finals = [await table_state(p) for p in players]
            assert {f["digest"] for f in finals} == {finals[0]["digest"]}
            for final, player in zip(finals, players, strict=True):
                assert final["result"] == {"ok": True, "blame": {}}, (player.name, final)
                assert final["over"] and final["stage"] == "done"
                assert not final["errors"], (player.name, final["errors"])
                assert not player.errors, (player.name, player.errors)
            assert await borya.page.evaluate(NO_SIDEWAYS_SCROLL)
            summary = await anya.page.inner_text("#summary")
            winner = state["winner"]
            expected = f"Победа — {state['names'][winner]}" if winner is not None else "Победителя"
            assert expected in summary and state["log"][-1] in summary
