"""Playing «Схватка» through the page as a person would: pick cards, seal, answer prompts."""

from __future__ import annotations

import contextlib
import json
import random
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
out = {"stage": "", "log": [], "waiting": [], "phase": "", "paused": False, "casting": False}
if peer is not None and peer.table.state is not None:
    view = peer.view()
    names = [x["name"] for x in view["seats"]]
    out = {"stage": peer.table.stage, "log": render_log("rumble", view["log"], "ru", names),
           "waiting": view["waiting"]["seats"],
           "phase": view["waiting"]["phase"], "paused": peer.table.paused, "seat": peer.seat,
           "fight": view["fight"], "names": names,
           "casting": any(x["spell_name"] for x in view["seats"]),
           "cast": any(e.get("e") == "cast" for e in view["log"]),
           "digest": peer.table.digest(), "result": peer.table.result,
           "obligations": {str(k): v for k, v in peer.table.obligations().items()},
           "errors": [str(e) for e in peer.errors][-4:] + s.errors[-4:],
           "entries": len(peer.table.log), "out": sorted(peer.table.out)}
json.dumps(out)
`)"""


# The driver's choice of hand cards while building a spell (seeded, though which calls it
# answers depends on the pages' timing: a run is not replayed exactly).
PICKS = random.Random(2026)


def mid_fight(state: dict[str, Any]) -> bool:
    """The fight is being played and a spell has been cast in it. A spell shows as being cast
    only until its caster's next step, so a reading between two of the driver's rounds of page
    steps can miss every such moment of a short fight (one of 107 entries ended before any reading
    saw one); the log keeps the cast, and the fight is still on until its audit."""
    return state["stage"] == "play" and bool(state["casting"] or state["cast"])


async def table_state(player: Player) -> dict[str, Any]:
    """What this page's table shows now (stage, log, whom it waits for...)."""
    return dict(json.loads(await player.page.evaluate(STATE)))


async def setup_lobby(players: list[Player]) -> None:
    """Every page picks a hero and says it is ready."""
    for i, player in enumerate(players):
        await player.page.click(f'#heroes button[data-hero="h_{i + 2}"]')
        await player.page.click("#ready")


async def start_rumble(host: Player, mode: str, fights: int, timer: int, assembly: int) -> None:
    """The host chooses «Схватка», its mode and timers, and starts once everyone is ready."""
    page = host.page
    await page.select_option("#table-game", "rumble")
    await page.select_option("#table-mode", mode)
    await page.select_option("#table-fights", str(fights))
    await page.fill("#table-timer", str(timer))
    await page.fill("#table-assembly", str(assembly))
    await page.wait_for_selector("#open-table:not([disabled])", timeout=30_000)
    await page.click("#open-table")


async def act(player: Player) -> str:
    """Make one step of this page's current decision; returns the prompt's phase ('' if none)."""
    page = player.page
    prompt = await page.query_selector("#prompt")
    if prompt is None:
        return ""
    phase = str(await prompt.get_attribute("data-phase") or "")
    with contextlib.suppress(PlaywrightError):  # the panel may have just been redrawn
        if phase == "assembly":
            seal = page.locator("#moves button.seal").first
            picked = page.locator('#hand button.hand-card[aria-pressed="true"]')
            unpicked = page.locator('#hand button.hand-card[aria-pressed="false"]')
            count, free = await picked.count(), await unpicked.count()
            if await seal.count():
                await seal.click(timeout=1000)
            elif count and (count >= 3 or not free or PICKS.random() < 0.5):
                # Picked cards with no seal offered cannot be sealed together (two of a kind, a
                # lone wild card, a card this seat may not cast alone): put the last one back.
                # Picking on would fill the spell's three places with no seal, and the page would
                # wait for its timer; picking at random, some set is soon one that seals.
                await picked.last.click(timeout=1000)
            elif free:
                # A first card that is not wild: a lone one is usually a spell of its own.
                plain = unpicked.and_(page.locator(':not([data-card="wild"])'))
                choice = plain if not count and await plain.count() else unpicked
                options = await choice.count()  # the hand may have been redrawn meanwhile
                if options:
                    await choice.nth(PICKS.randrange(options)).click(timeout=1000)
        else:
            button = page.locator("#moves button").first
            if await button.count():
                await button.click(timeout=1000)
    return phase


async def play_until(players: list[Player], done: Any, **options: Any) -> dict[str, Any]:
    """``table_driver.play_until`` with this game's table reading and page step."""
    return await table_driver.play_until(players, done, state=table_state, act=act, **options)
