"""Playing «Волшебный круг» through the page: read the table, blow spells away with the keyboard."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from playwright.async_api import Error as PlaywrightError

from .harness import Player

STATE = """() => window.magicTable.pyodide.runPython(`
import json
from js import window
from web.ui.phrases import render_log
s = window.magicTableApp.table.session
peer = s.peer
out = {"stage": "", "seat": None}
if peer is not None and peer.table.state is not None:
    view = peer.view()
    out = {"stage": peer.table.stage, "seat": peer.seat, "phase": view["phase"],
           "spell": view["spell"], "hand": len(view["hand"]), "over": view["over"],
           "winner": view["winner"],
           "log": render_log("circle", view["log"], "ru", [x["name"] for x in view["seats"]]),
           "lives": [x["life"] for x in view["seats"]], "digest": peer.table.digest(),
           "result": peer.table.result, "refused": list(peer.refused),
           "errors": [str(e) for e in peer.errors][-4:] + s.errors[-4:],
           "entries": len(peer.table.log)}
json.dumps(out)
`)"""


async def table_state(player: Player) -> dict[str, Any]:
    return dict(json.loads(await player.page.evaluate(STATE)))


async def start_circle(host: Player, countdown: int) -> None:
    """The host chooses «Волшебный круг» and its countdown, and starts once everyone is ready."""
    page = host.page
    await page.select_option("#table-game", "circle")
    await page.fill("#table-countdown", str(countdown))
    await page.wait_for_selector("#open-table:not([disabled])", timeout=30_000)
    await page.click("#open-table")


async def blow_away(player: Player, state: dict[str, Any], keep: int = 3) -> bool:
    """When the spell flies at this page's seat and it holds at least ``keep`` cards, press 1 (then
    1 again for an all-directions wind's target). True if a key was pressed."""
    spell = state.get("spell")
    if state.get("phase") != "scramble" or not spell or spell["target"] != state["seat"]:
        return False
    if state.get("hand", 0) < keep:
        return False
    page = player.page
    with contextlib.suppress(PlaywrightError):
        if await page.locator("#moves button[data-action]").count() == 0:
            return False
        await page.keyboard.press("1")
        if await page.locator("#moves button.c-target").count():
            await page.keyboard.press("1")
        return True
    return False
