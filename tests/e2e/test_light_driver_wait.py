"""The benchmarks' light driver waits on a page's own changes (``light_driver.changed``): it
answers at once when the page already differs from what the driver saw, when the page changes,
and after its time limit when nothing does. (Nothing is timed.)"""

from __future__ import annotations

import asyncio

import pytest

from benchmarks.light_driver import READ, changed
from tests.e2e.harness import chromium

pytestmark = pytest.mark.browser

TABLE = """<div id="table-status" data-stage="play"></div>
<div id="prompt" data-phase="fight"><div id="moves"></div></div>"""
OFFER = """() => document.querySelector("#moves").innerHTML = "<button>go</button>" """


async def test_the_driver_is_answered_when_the_page_changes_and_not_before() -> None:
    async with chromium() as browser:
        page = await browser.new_page()
        await page.set_content(TABLE)
        seen = dict(await page.evaluate(READ))
        assert seen == {"stage": "play", "phase": "fight", "move": False}
        assert await changed(page, None, 5) == seen  # differs already: at once
        waiting = asyncio.ensure_future(changed(page, seen, 30))
        await asyncio.sleep(0.3)
        assert not waiting.done()  # nothing changed yet
        await page.evaluate(OFFER)
        assert await asyncio.wait_for(waiting, 10) == {**seen, "move": True}
        same = {**seen, "move": True}
        assert await changed(page, same, 0.2) == same  # the time limit, nothing changed
        await page.close()
