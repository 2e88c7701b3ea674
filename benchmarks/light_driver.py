"""«Схватка» played by a driver about as light on the pages as a person: it reads a page (the
stage, what is asked, the hand's picked and unpicked cards) when what the page shows has changed,
waiting on the page's own changes rather than asking again and again, and clicks with the mouse's
own events at the chosen element's centre; with think times, each page makes a move a random
moment (seeded) after it was offered, as players do.

The tests' driver (``tests.e2e.rumble_driver.act``) asks each page through Playwright's locators:
five to ten DevTools round trips a page a round, each an evaluation in the page, and a click that
first waits for the element to hold still over two frames and checks what the pointer would hit,
with forced style and layout. A probe put that at about a third of the machine's CPU per log
entry in a «Схватка» tournament. It makes the same choices here (``PICKS``), so the games are
alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from tests.e2e.harness import Player
from tests.e2e.rumble_driver import PICKS

READ = """() => {
  const status = document.querySelector("#table-status");
  const stage = status ? status.getAttribute("data-stage") : "";
  const prompt = document.querySelector("#prompt");
  if (!prompt) return {stage, phase: null};
  const phase = prompt.getAttribute("data-phase") || "";
  if (phase !== "assembly") return {stage, phase, move: !!document.querySelector("#moves button")};
  const unpicked = document.querySelectorAll('#hand button.hand-card[aria-pressed="false"]');
  return {stage, phase, seal: !!document.querySelector("#moves button.seal"),
    picked: document.querySelectorAll('#hand button.hand-card[aria-pressed="true"]').length,
    wild: [...unpicked].map((card) => card.getAttribute("data-card") === "wild")};
}"""
# The centre of the chosen element, scrolled into view, if the pointer there would reach it (an
# open card's detail may cover a hand card: then no click this round).
WHERE = """([selector, index]) => {
  const all = document.querySelectorAll(selector);
  const element = all[index < 0 ? all.length + index : index];
  if (!element) return null;
  element.scrollIntoView({block: "nearest"});
  const box = element.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  return hit && element.contains(hit) ? [x, y] : null;
}"""
SEAL, MOVE = "#moves button.seal", "#moves button"
PICKED = '#hand button.hand-card[aria-pressed="true"]'
UNPICKED = '#hand button.hand-card[aria-pressed="false"]'


def choice(seen: dict[str, Any]) -> tuple[str, int] | None:
    """What ``rumble_driver.act`` would click on a page that reads ``seen``: a selector and the
    index of the element among its matches (−1: the last), or None."""
    if seen.get("phase") is None:
        return None
    if seen["phase"] != "assembly":
        return (MOVE, 0) if seen.get("move") else None
    picked, wild = int(seen["picked"]), list(seen["wild"])
    if seen["seal"]:
        return SEAL, 0
    if picked and (picked >= 3 or not wild or PICKS.random() < 0.5):
        return PICKED, -1  # a set with no seal offered: put the last card back
    if wild:
        plain = [i for i, is_wild in enumerate(wild) if not is_wild]
        options = plain if not picked and plain else list(range(len(wild)))
        return UNPICKED, options[PICKS.randrange(len(options))]
    return None


async def click(player: Player, selector: str, index: int) -> None:
    """Press and release the mouse at the element's centre (nothing if it is gone or covered)."""
    with contextlib.suppress(PlaywrightError):  # the page may be redrawing or closing
        at = await player.page.evaluate(WHERE, [selector, index])
        if at is not None:
            await player.page.mouse.click(float(at[0]), float(at[1]))


# Resolves with the page's ``READ`` once it differs from ``last`` (at once if it already does), or
# after ``ms`` whatever it is: the driver waits on the page's own changes instead of asking every
# few milliseconds (a poll of three pages 20 times a second was a DevTools call, and a task on
# each page's thread, every 17 ms).
CHANGED = (
    "async ([last, ms]) => { const read = "
    + READ
    + """;
  const before = JSON.stringify(last);
  const now = read();
  if (JSON.stringify(now) !== before) return now;
  return await new Promise((resolve) => {
    const done = (value) => { observer.disconnect(); clearTimeout(timer); resolve(value); };
    const observer = new MutationObserver(() => {
      const seen = read();
      if (JSON.stringify(seen) !== before) done(seen);
    });
    observer.observe(document.body,
      {subtree: true, childList: true, attributes: true, characterData: true});
    const timer = setTimeout(() => done(read()), ms);
  });
}"""
)


async def changed(page: Page, last: dict[str, Any] | None, wait_s: float) -> dict[str, Any]:
    """What ``page`` shows (``READ``) once it differs from ``last``, or after ``wait_s``
    seconds."""
    return dict(await page.evaluate(CHANGED, [last, int(wait_s * 1000)]))


async def play_page(player: Player, think: tuple[float, float], thinking: random.Random) -> None:
    """One page's moves until the game is over: ``think`` seconds (a uniform draw) after it is
    offered something to do, and again after each step of a spell it builds."""
    seen: dict[str, Any] | None = None
    while True:
        seen = await changed(player.page, seen, 1.0)
        if seen["stage"] == "done":
            return
        if seen.get("phase") is None or (seen["phase"] != "assembly" and not seen["move"]):
            continue
        await asyncio.sleep(thinking.uniform(*think))
        with contextlib.suppress(PlaywrightError):
            seen = dict(await player.page.evaluate(READ))
        picked = choice(seen)
        if picked is not None:
            await click(player, *picked)


async def play(
    players: list[Player], think: tuple[float, float], timeout: float = 900, seed: int = 7
) -> None:
    """Every page plays (``play_page``) until each page's table is done; a page's driver that
    fails stops the run with its error."""
    pages = [
        asyncio.ensure_future(play_page(player, think, random.Random(f"{seed}:{i}")))
        for i, player in enumerate(players)
    ]
    try:
        await asyncio.wait_for(asyncio.gather(*pages), timeout)
    except TimeoutError:
        states = [await p.page.evaluate(READ) for p in players]
        raise AssertionError(f"the game did not end in time: {states}") from None
    finally:
        for page in pages:
            page.cancel()
        await asyncio.gather(*pages, return_exceptions=True)
