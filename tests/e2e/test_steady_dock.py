"""«Схватка»'s board holds still in Chromium, with the site's style sheet, on a desktop screen:
the place of questions above the hand is as tall whether this seat is asked something or not,
every card of the hand is as tall, and the wizards' boxes change height only when their rows of
chips do. A board that moved these made the hand jump under the player's pointer as questions
came and went, and every page repaint most of its screen at each jump."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.games.rumble import RumbleRules
from web.ui import rumble_views

from .harness import chromium, signaling_server

pytestmark = pytest.mark.browser

SEAT = 1
PAGE = """() => new Promise((loaded) => {
  document.documentElement.innerHTML = '<head><link rel="stylesheet" href="/style.css"></head>'
    + '<body class="ready"><main><div id="table"></div></main></body>';
  document.querySelector("link").onload = loaded;
})"""
MEASURE = """(html) => {
  document.getElementById("table").innerHTML = html;
  const height = (selector) => {
    const found = document.querySelector(selector);
    return found ? Math.round(found.getBoundingClientRect().height) : -1;
  };
  const rows = {};  // the tallest chips of each row of boxes, by the row's top
  for (const box of document.querySelectorAll(".wizards .wizard")) {
    const top = Math.round(box.getBoundingClientRect().top);
    const chips = box.querySelector(".chips").getBoundingClientRect().height;
    rows[top] = Math.max(rows[top] || 0, chips);
  }
  const chips = Object.values(rows).reduce((sum, tallest) => sum + tallest, 0);
  return {ask: height(".ask"), hand: height("#hand"),
          beside: Math.round(height(".wizards") - chips),
          cards: document.querySelectorAll("#hand .hand-card").length};
}"""


def boards(steps: int = 1500) -> list[tuple[str, str]]:
    """(what this seat is asked, its board) after each step of a seeded game of random bots;
    while it builds a spell, its board with two cards picked and with none."""
    rules = RumbleRules()
    table = LocalTable(rules, {"seats": 4}, seed=7)
    bot = RandomBot(7)
    drawn = []
    for _ in range(steps):
        view = rules.view(table.state, table.knowledge[SEAT])
        asked = SEAT in table.decision().seats
        moves = rules.legal_actions(table.state, SEAT, table.knowledge[SEAT]) if asked else []
        phase = view["waiting"].get("phase", "") if moves else "nothing"
        if phase == "assembly":
            picked = [card["slot"] for card in view["hand"][:2]]
            drawn.append(("assembly, two picked", rumble_views.board(view, SEAT, moves, picked)))
        drawn.append((phase, rumble_views.board(view, SEAT, moves, [])))
        if not table.step(bot.choose):
            break
    return drawn


async def test_the_hand_and_the_boxes_hold_still_as_the_game_goes_on() -> None:
    drawn = boards()
    with signaling_server() as server:
        async with chromium() as browser:
            page = await browser.new_page(viewport={"width": 1280, "height": 800})
            await page.goto(server.origin + "/morph.js")
            await page.evaluate(PAGE)
            measured = [(phase, await page.evaluate(MEASURE, html)) for phase, html in drawn]
    asks: dict[str, Counter[int]] = defaultdict(Counter)
    for phase, sizes in measured:
        asks[phase][sizes["ask"]] += 1
    reserved = asks["nothing"].most_common(1)[0][0]
    assert reserved > 100 and set(asks["nothing"]) == {reserved}, asks
    assert set(asks["assembly"]) == {reserved}, asks  # nothing picked yet
    assert len(asks) >= 5, asks  # the game asked several kinds of question
    asked = [sizes["ask"] for phase, sizes in measured if phase != "nothing"]
    # Only a question whose buttons take more than a line or two (many ways to seal the picked
    # cards, long treasure payments) makes the place taller: 8 of the 109 questions of this game.
    assert sum(size == reserved for size in asked) >= 0.9 * len(asked), asks
    full = {sizes["hand"] for _, sizes in measured if sizes["cards"] >= 4}
    assert len(full) == 1, full  # every card as tall: a hand's height does not depend on its texts
    beside = Counter(sizes["beside"] for _, sizes in measured)
    assert len(beside) == 1, beside  # the boxes' height but their chips never changes
