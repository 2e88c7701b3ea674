"""Playing «Невермор» through the page as a person would: pick cards to pass, confirm, answer."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from playwright.async_api import Error as PlaywrightError

from . import table_driver
from .harness import Player

STATE = """() => window.magicTable.pyodide.runPython(`
import json
from js import window
from web.ui.phrases import render_log
s = window.magicTableApp.table.session
peer = s.peer
out = {"stage": "", "log": [], "waiting": [], "phase": "", "over": False, "round": 0}
if peer is not None and peer.table.state is not None:
    view = peer.view()
    log = render_log("nevermore", view["log"], "ru", view["names"])
    out = {"stage": peer.table.stage, "log": log, "waiting": view["need"]["seats"],
           "phase": view["need"]["phase"], "over": view["over"], "round": view["round"],
           "winner": view["winner"], "seat": peer.seat, "names": view["names"],
           "tokens": view["tokens_revealed"], "vp": view["vp"], "health": view["health"],
           "raven": view["raven"], "digest": peer.table.digest(), "result": peer.table.result,
           "errors": [str(e) for e in peer.errors][-4:] + s.errors[-4:],
           "entries": len(peer.table.log), "out": sorted(peer.table.out),
           "hands": peer.rules.data(peer.table.state)["hand"],
           "known": sorted(peer.knowledge.cards)}
json.dumps(out)
`)"""


async def table_state(player: Player) -> dict[str, Any]:
    """What this page's table shows now (stage, phase, whom it waits for, the log...)."""
    return dict(json.loads(await player.page.evaluate(STATE)))


async def start_nevermore(host: Player, timer: int) -> None:
    """The host chooses «Невермор» and the move timer, and starts once everyone is ready."""
    page = host.page
    await page.select_option("#table-game", "nevermore")
    await page.wait_for_selector('#game-settings[data-game="nevermore"]')
    await page.fill("#table-timer", str(timer))
    await page.wait_for_selector("#open-table:not([disabled])", timeout=30_000)
    await page.click("#open-table")


async def act(player: Player) -> str:
    """One step of this page's decision, the simple way: in the draft select the first cards of
    the hand, then confirm; otherwise the first offered button. Returns the phase ('' if none)."""
    page = player.page
    prompt = await page.query_selector("#prompt")
    if prompt is None:
        return ""
    phase = str(await prompt.get_attribute("data-phase") or "")
    with contextlib.suppress(PlaywrightError):  # the panel may have just been redrawn
        if phase == "pass_commit":
            confirm = page.locator("#pass-confirm:not([disabled])")
            if await confirm.count():
                await confirm.click(timeout=1000)
            else:
                card = page.locator('#hand button.hand-card[aria-pressed="false"]').first
                if await card.count():
                    await card.click(timeout=1000)
        else:
            button = page.locator("#moves button").first
            if await button.count():
                await button.click(timeout=1000)
    return phase


async def play_until(players: list[Player], done: Any, **options: Any) -> dict[str, Any]:
    """``table_driver.play_until`` with this game's table reading and page step."""
    return await table_driver.play_until(players, done, state=table_state, act=act, **options)
