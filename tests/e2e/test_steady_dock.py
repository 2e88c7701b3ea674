"""The boards of «Схватка» and «Невермор» hold still in Chromium, with the site's style sheet, on
a desktop screen: the place of questions above the hand is as tall whether this seat is asked
something or not, every card of the hand is as tall, and «Схватка»'s wizards' boxes change height
only when their rows of chips do. A board that moved these made the hand jump under the player's
pointer as questions came and went, and every page repaint most of its screen at each jump.
Checked in Russian and in English. («Невермор»'s players' boxes, four in a row of 802 px, still
grow as their lines wrap.)"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

import pytest

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.games.nevermore import NevermoreRules
from engine.games.rumble import RumbleRules
from web.ui import i18n, nevermore_views, rumble_views

from .harness import chromium, signaling_server

pytestmark = pytest.mark.browser

SEAT = 1
PAGE = """() => new Promise((loaded) => {
  document.documentElement.innerHTML = '<head><link rel="stylesheet" href="/style.css"></head>'
    + '<body class="ready"><main><div id="table" style="width: 802px"></div></main></body>';
  document.querySelector("link").onload = loaded;
})"""
# The heights of the place of questions and of the hand, the players' boxes' height but their
# tallest chips in each row of boxes, the number of cards in the hand.
MEASURE = """([html, boxes]) => {
  document.getElementById("table").innerHTML = html;
  const height = (selector) => {
    const found = document.querySelector(selector);
    return found ? Math.round(found.getBoundingClientRect().height) : -1;
  };
  const rows = {};  // the tallest chips of each row of boxes, by the row's top
  for (const box of document.querySelectorAll(boxes + " article")) {
    const top = Math.round(box.getBoundingClientRect().top);
    const chips = box.querySelector(".chips").getBoundingClientRect().height;
    rows[top] = Math.max(rows[top] || 0, chips);
  }
  const chips = Object.values(rows).reduce((sum, tallest) => sum + tallest, 0);
  return {ask: height(".ask"), hand: height("#hand"),
          beside: Math.round(height(boxes) - chips),
          cards: document.querySelectorAll("#hand .hand-card").length};
}"""
Drawn = list[tuple[str, str]]


def boards(
    rules: Any,
    board: Callable[..., str],
    phase_of: Callable[[Any], str],
    lang: str,
    steps: int = 1500,
) -> Drawn:
    """(what this seat is asked, its board in ``lang``) after each step of a seeded game of random
    bots; when it picks cards for a question, also its board with two cards picked; last, the
    board of a spectator."""
    i18n.use(lang)
    try:
        return _boards(rules, board, phase_of, steps)
    finally:
        i18n.use("ru")


def _boards(
    rules: Any, board: Callable[..., str], phase_of: Callable[[Any], str], steps: int
) -> Drawn:
    table = LocalTable(rules, {"seats": 4}, seed=7)
    bot = RandomBot(7)
    drawn = []
    for _ in range(steps):
        view = rules.view(table.state, table.knowledge[SEAT])
        asked = SEAT in table.decision().seats
        moves = rules.legal_actions(table.state, SEAT, table.knowledge[SEAT]) if asked else []
        phase = phase_of(view) if moves else "nothing"
        if phase == "assembly":
            picked = [card["slot"] for card in view["hand"][:2]]
            drawn.append(("assembly, two picked", board(view, SEAT, moves, picked)))
        drawn.append((phase, board(view, SEAT, moves, [])))
        if not table.step(bot.choose):
            break
    drawn.append(("spectator", board(view, None, [], [])))  # no hand: no room kept
    return drawn


async def measure(drawn: Drawn, boxes: str) -> list[tuple[str, dict[str, int]]]:
    """Each board drawn in a 1280 × 800 page with the site's style sheet, measured (the table
    802 px wide, as beside the room's column on such a screen)."""
    with signaling_server() as server:
        async with chromium() as browser:
            page = await browser.new_page(viewport={"width": 1280, "height": 800})
            await page.goto(server.origin + "/morph.js")
            await page.evaluate(PAGE)
            return [(phase, await page.evaluate(MEASURE, [html, boxes])) for phase, html in drawn]


def assert_the_place_of_questions_holds(measured: list[tuple[str, dict[str, int]]]) -> None:
    """As tall when nothing is asked as for most questions of a game (a question whose buttons
    take more lines makes it taller: 13 of «Схватка»'s 109 here); a hand as tall for as many
    cards."""
    asks: dict[str, Counter[int]] = defaultdict(Counter)
    for phase, sizes in measured:
        asks[phase][sizes["ask"]] += 1
    reserved = asks["nothing"].most_common(1)[0][0]
    assert reserved > 100 and set(asks["nothing"]) == {reserved}, asks
    assert max(asks.pop("spectator")) < 50, asks  # a spectator's dock holds the waiting line only
    assert len(asks) >= 5, asks  # the game asked several kinds of question
    asked = [sizes["ask"] for phase, sizes in measured if phase not in ("nothing", "spectator")]
    assert sum(size == reserved for size in asked) >= 0.85 * len(asked), asks
    hands: dict[int, set[int]] = defaultdict(set)
    for phase, sizes in measured:
        if phase != "spectator":
            hands[sizes["cards"]].add(sizes["hand"])
    # Every card as tall: a hand's height depends on how many cards it holds, not on their texts.
    assert all(len(heights) == 1 for heights in hands.values()), hands


def rumble_phase(view: dict[str, Any]) -> str:
    return str(view["waiting"]["phase"])


def nevermore_phase(view: dict[str, Any]) -> str:
    return str(view["need"]["phase"])


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_the_rumble_board_holds_still_as_the_game_goes_on(lang: str) -> None:
    drawn = boards(RumbleRules(), rumble_views.board, rumble_phase, lang)
    measured = await measure(drawn, ".wizards")
    assert_the_place_of_questions_holds(measured)
    # The first question of a spell, nothing picked yet, is never taller than the place (others
    # can be: many ways to seal the picked cards, long treasure payments).
    assert {sizes["ask"] for phase, sizes in measured if phase == "assembly"} == {
        sizes["ask"] for phase, sizes in measured if phase == "nothing"
    }
    # The boxes' height but their chips is the same in all but one board in a hundred (37
    # heights over a game before their lines were kept).
    beside = Counter(sizes["beside"] for phase, sizes in measured if phase != "spectator")
    assert beside.most_common(1)[0][1] >= 0.99 * (len(measured) - 1), beside


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_the_nevermore_board_holds_still_as_the_game_goes_on(lang: str) -> None:
    drawn = boards(NevermoreRules(), nevermore_views.board, nevermore_phase, lang)
    measured = await measure(drawn, "#nm-players")
    assert_the_place_of_questions_holds(measured)
