"""«Схватка» played by a driver about as light on the pages as a person: each round it reads every
page once (the stage, what is asked, the hand's picked and unpicked cards) and clicks with the
mouse's own events at the chosen element's centre; with think times, each page makes a move a
random moment (seeded) after it was offered, as players do.

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


async def play(
    players: list[Player], think: tuple[float, float], timeout: float = 900, seed: int = 7
) -> None:
    """Every page plays until the first page's table is done; a page acts ``think`` seconds (a
    uniform draw) after it has something to do, and again after each step of a spell it builds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    thinking = random.Random(seed)
    due: dict[int, float] = {}
    while True:
        seen = [await p.page.evaluate(READ) for p in players]
        if seen[0]["stage"] == "done":
            return
        if loop.time() > deadline:
            raise AssertionError(f"the game did not end in time: {seen}")
        now = loop.time()
        for i, (player, state) in enumerate(zip(players, seen, strict=True)):
            if state.get("phase") is None or (state["phase"] != "assembly" and not state["move"]):
                due.pop(i, None)
                continue
            if i not in due:
                due[i] = now + thinking.uniform(*think)
            if now >= due[i]:
                del due[i]
                picked = choice(state)
                if picked is not None:
                    await click(player, *picked)
        await asyncio.sleep(0.05)
