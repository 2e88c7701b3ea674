"""The table panel's redraw in Chromium (``web/static/morph.js`` ``morphParts``, told by
``web.ui.parts.Told``): after every redraw of a sequence the panel holds exactly the HTML the
render gives, while a log that moved keeps the nodes of the lines it kept, a part that did not
change is not touched, and a part's element that the skeleton brings anew is filled with what
was told of it before."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import pytest
from playwright.async_api import Page

from web.ui import parts

from .harness import chromium, signaling_server

pytestmark = pytest.mark.browser

SETUP = """async () => {
  window.__morph = await import("/morph.js");
  window.__panel = document.createElement("div");
  document.body.replaceChildren(window.__panel);
}"""
DRAW = """([skeleton, changes, empty]) => {
  if (empty) window.__panel.replaceChildren();
  window.__morph.morphParts(window.__panel, skeleton, changes, "game-log");
  return window.__panel.innerHTML;
}"""
# Marks every node of the log and of the hand, then reads which are still marked.
MARK = """() => { for (const n of document.querySelectorAll("#game-log > li, #hand > *"))
  n.__kept = n.textContent; }"""
KEPT = """(selector) => [...document.querySelectorAll(selector)].map((n) => n.__kept || null)"""


@contextlib.asynccontextmanager
async def morph_page() -> AsyncIterator[Page]:
    """A page of the real server with ``morphParts`` loaded and an empty panel."""
    with signaling_server() as server:
        async with chromium() as browser:
            page = await browser.new_page()
            await page.goto(server.origin + "/morph.js")
            await page.evaluate(SETUP)
            yield page


def render(head: str, hand: str | None, log: list[str], wrap: str = "section") -> str:
    """A panel shaped like a board: a head, a hand (a part, or none) and a log (a list)."""
    hand_html = "" if hand is None else f'<div id="hand">{parts.part("hand", hand)}</div>'
    return (
        f'<h2 id="head">{head}</h2>{hand_html}'
        f'<{wrap} class="board"><p>{len(log)} lines</p>'
        f'<ol id="game-log" class="game-log">{parts.part("game-log", log)}</ol></{wrap}>'
    )


def lines(start: int, stop: int) -> list[str]:
    return [f'<li data-k="k{i % 3}">line {i}</li>' for i in range(start, stop)]


async def test_each_redraw_leaves_the_panel_as_the_render_says() -> None:
    told = parts.Told()
    hand = '<button type="button">one</button><button type="button">two</button>'

    async def draw(*args: Any, empty: bool = False, **kwargs: Any) -> None:
        drawn = parts.Marked(lambda: render(*args, **kwargs))
        out = told.tell(drawn, again=empty)
        assert out is not None
        shown = await page.evaluate(DRAW, [*out, empty])
        assert shown == drawn.html()

    async with morph_page() as page:
        await draw("1", hand, lines(0, 5))
        await draw("2", hand, lines(0, 9))  # the log grew
        await page.evaluate(MARK)
        await draw("3", hand, lines(3, 12))  # the log at its cap: 3 lines gone, 3 new
        kept = await page.evaluate(KEPT, "#game-log > li")
        assert kept == [f"line {i}" for i in range(3, 9)] + [None] * 3
        assert await page.evaluate(KEPT, "#hand > *") == ["one", "two"]  # not touched
        await draw("3", hand.replace("two", "deux"), lines(3, 12))  # the hand changed
        assert await page.evaluate(KEPT, "#hand > *") == ["one", "two"]  # patched in place
        assert await page.evaluate(KEPT, "#game-log > li") == kept
        await draw("4", None, lines(3, 13))  # no hand
        await draw("5", hand.replace("two", "deux"), lines(3, 13))  # back, as told before
        await draw("6", hand, lines(4, 14), wrap="div")  # the log's element is new
        await draw("7", hand, lines(100, 104))  # a new game's log
        await draw("7", hand, lines(100, 106), empty=True)  # an emptied panel
        await draw("8", "", [])


def cards(slots: list[int], picked: int | None = None) -> str:
    """Hand cards as the boards draw them: one button per card, told apart by ``data-slot``."""
    return "".join(
        f'<button type="button" data-slot="{s}" class="{"selected" if s == picked else "card"}">'
        f'<img src="/c{s}.svg" alt=""><span>card {s}</span></button>'
        for s in slots
    )


async def test_hand_cards_keep_their_nodes_by_slot() -> None:
    told = parts.Told()
    async with morph_page() as page:

        async def draw(hand: str) -> None:
            drawn = parts.Marked(lambda: render("h", hand, lines(0, 2)))
            out = told.tell(drawn)
            assert out is not None
            assert await page.evaluate(DRAW, [*out, False]) == drawn.html()

        await draw(cards([1, 2, 3, 4]))
        await page.evaluate(MARK)
        # A card played from the middle, one drawn: the others keep their nodes (the played
        # card's node, wanted no more, goes; the new card is a new node).
        await draw(cards([1, 3, 4, 5]))
        kept = ["card 1", "card 3", "card 4", None]
        assert await page.evaluate(KEPT, "#hand > *") == kept
        await page.evaluate(MARK)
        await draw(cards([6, 4, 1, 3, 5], picked=3))  # a new card first, the rest moved
        kept = [None, "card 4", "card 1", "card 3", "card 5"]
        assert await page.evaluate(KEPT, "#hand > *") == kept
        await page.evaluate(MARK)
        # Slot 6's node is wanted no more (it becomes 7); slot 4's is wanted after a new
        # card, so the new card comes in before it instead of taking its node.
        await draw(cards([7, 8, 4]))
        assert await page.evaluate(KEPT, "#hand > *") == ["card 6", None, "card 4"]


def board(note: str | None, chips_note: str | None, log: list[str], hand: str) -> str:
    """A board shaped like «Схватка»'s: a wizard whose note comes and goes before its chips, a
    waiting note that comes and goes before the log, the log (a list) and a dock with the hand."""
    wait = "" if note is None else f'<p class="wait">{note}</p>'
    sealed = "" if chips_note is None else f'<p class="sealed">{chips_note}</p>'
    return (
        f'<section class="rumble"><article class="wizard">{sealed}<div class="chips">3</div>'
        f"</article>{wait}"
        f'<ol id="game-log" class="game-log">{parts.part("game-log", log)}</ol>'
        f'<div class="dock"><div id="hand" class="hand">{parts.part("hand", hand)}</div></div>'
        "</section>"
    )


# Marks the board's elements that a note must leave alone, then reads which are still marked.
MARK_BOARD = """() => { for (const n of document.querySelectorAll(
  ".chips, #game-log, #game-log > li, .dock, #hand, #hand > *")) n.__kept = true; }"""
KEPT_BOARD = """() => [...document.querySelectorAll(
  ".chips, #game-log, #game-log > li, .dock, #hand, #hand > *")].every((n) => n.__kept)"""


async def test_a_note_that_comes_or_goes_leaves_its_neighbours_alone() -> None:
    told = parts.Told()
    async with morph_page() as page:

        async def draw(note: str | None, chips_note: str | None) -> bool:
            drawn = parts.Marked(lambda: board(note, chips_note, lines(0, 4), cards([1, 2])))
            out = told.tell(drawn)
            assert out is not None
            assert await page.evaluate(DRAW, [*out, False]) == drawn.html()
            kept = bool(await page.evaluate(KEPT_BOARD))
            await page.evaluate(MARK_BOARD)
            return kept

        await draw(None, None)
        await page.evaluate(MARK_BOARD)
        assert await draw("wait", None)  # a note came before the log
        assert await draw(None, None)  # and went
        assert await draw("wait", "sealed")  # before the chips, too
        assert await draw(None, "sealed")
        assert await draw("other", None)


async def test_a_boxed_seat_whose_classes_change_keeps_its_node_and_the_skeleton() -> None:
    """A seat's element in a part's box (``parts.boxed``): its classes and counts change, the
    page is told that part alone (no skeleton), and the seat keeps its node (an animation or the
    pointer on it stays)."""
    told = parts.Told()

    def seats(turn: int, life: int) -> str:
        boxes = "".join(
            parts.boxed(
                f"seat-{s}",
                f'<article class="wizard{" turn" if s == turn else ""}" data-seat="{s}">'
                f"<em>{life if s == 1 else 9}</em></article>",
            )
            for s in range(3)
        )
        return f'<section class="rumble"><div class="wizards">{boxes}</div></section>'

    async with morph_page() as page:
        skeletons = []
        for turn, life in ((0, 9), (1, 9), (1, 7)):
            drawn = parts.Marked(partial(seats, turn, life))
            out = told.tell(drawn)
            assert out is not None
            skeletons.append(out[0])
            assert await page.evaluate(DRAW, [*out, False]) == drawn.html()
            if len(skeletons) == 1:
                await page.evaluate(MARK_SEATS)
        assert skeletons[0] is not None and skeletons[1:] == [None, None]  # told once
        assert await page.evaluate(KEPT_SEATS) == [1, 1, 1]


MARK_SEATS = "() => document.querySelectorAll('[data-seat]').forEach((n) => { n.__kept = 1; })"
KEPT_SEATS = "() => [...document.querySelectorAll('[data-seat]')].map((n) => n.__kept || 0)"
