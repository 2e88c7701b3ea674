"""The lobby lays each game's board out once, unseen, before a game starts. Runs only under
Pyodide.

A page's first layout of a game's board costs several times any later one (a probe page: 13–17 ms
against 2–4 ms, and 3–4 ms once the same markup with other words in it was laid out before): the
browser meets the board's style rules and boxes for the first time. A game's first board comes on
every page at the same moment, as the game starts, and on two cores three pages doing that at
once made tasks of 50–100 ms. So while the page sits in the lobby it draws a sample board of each
game (``sample_table``), the chosen one first, and when the page is idle lays it out in a hidden
holder and takes it away again, in one task: nothing is shown, and no other code sees the
sample's elements (their ids are the real board's).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from functools import partial

from js import console, document

from . import warm
from .idle import idle_result
from .sample_table import sample_board

IDLE_WITHIN_MS = 2000  # the longest each step waits for the page to be idle
IDLE_OTHERWISE_MS = 200  # the wait in a browser without idle callbacks
# Out of the flow, unseen, and its size its own: the sample moves nothing on the page.
HOLDER_STYLE = (
    "position:absolute;left:0;top:0;width:100%;height:0;overflow:hidden;"
    "visibility:hidden;contain:strict;pointer-events:none"
)


def lay_out_unseen(html: str, game_id: str) -> int:
    """Put ``html`` in a hidden holder, have the browser work out its style and layout, and take
    it away again; the height the sample took (0 for no sample)."""
    if not html:
        return 0
    holder = document.createElement("div")
    holder.setAttribute("aria-hidden", "true")
    holder.setAttribute("data-rehearsal", game_id)
    holder.setAttribute("style", HOLDER_STYLE)
    holder.innerHTML = html
    document.body.append(holder)
    try:
        return int(holder.firstElementChild.offsetHeight)  # style and layout, now
    finally:
        holder.remove()


class Rehearsal:
    """The games' boards laid out once on this page, one after another, when the lobby asks."""

    def __init__(self) -> None:
        self._running: asyncio.Task[None] | None = None

    def start(self, games: Sequence[str], seats: int, lang: str) -> None:
        """Rehearse each of ``games`` (for ``seats`` seats) in turn, in the background, unless
        this page has already started to."""
        if self._running is None:
            self._running = asyncio.ensure_future(self._rehearse(list(games), seats, lang))

    async def _rehearse(self, games: list[str], seats: int, lang: str) -> None:
        try:
            await warm.start()  # the modules a sample needs, imported one per task
        except Exception as exc:  # the samples import what they need themselves
            console.warn(f"the lobby could not import ahead: {exc!r}")
        for game_id in games:
            try:
                html = await idle_result(
                    partial(sample_board, game_id, seats, lang), IDLE_WITHIN_MS, IDLE_OTHERWISE_MS
                )
                await idle_result(
                    partial(lay_out_unseen, html, game_id), IDLE_WITHIN_MS, IDLE_OTHERWISE_MS
                )
            except Exception as exc:  # a rehearsal only saves time later: the page goes on
                console.warn(f"the lobby could not rehearse the board of {game_id}: {exc!r}")
