"""The table panel's parts: the pieces of its HTML a redraw hands to the page one by one.

A board marks an element's content as a part (``part``: HTML, patched node by node, or a list
of items, such as the log, which only grows at the end and loses lines at the start). A
render through ``Marked`` collects each part's content and leaves a placeholder in its place,
so the panel's HTML becomes a skeleton (every part's element there, empty) and the parts. An
element whose own attributes change often goes whole into a part, in a box the page lays out as
if it were not there (``boxed``), so the skeleton changes seldom. The
page's redraw (``TableUI.render``) hands ``morphParts`` (``web/static/morph.js``) the skeleton
and what changed (``Told.tell``); the page parses and compares the skeleton only when it
changed and only the parts that changed; a log that moved gets only its new lines. Outside
``Marked`` a part is its content: the HTML is the one the page shows. Pure Python.

What ``morphParts(target, skeleton, changes, stickId)`` does: unless the skeleton is ``null`` (the
one told last), it patches ``target``'s children to the skeleton's (unchanged nodes — buttons under
the pointer, a focused field, scroll positions, running animations — stay as they are; children
with a ``data-slot``, such as hand cards, or an ``id`` are matched by it, so a card played from the
middle leaves the others' nodes alone, and the others by position, looking one node ahead, so a
note that comes or goes before the log does not rebuild the log and the dock), leaving the content
of each part's element alone. ``changes`` is JSON: ``ids``, the parts in the skeleton; ``whole``,
id → a part's HTML (patched in) or a list's items, told anew; ``moved``, id → ``[n, items]``: the
list lost its first ``n`` items and gained these at its end (the kept lines keep their nodes). The
page keeps what it was told of each part, so a part's element that the skeleton brings anew is
filled with that. The element ``stickId`` (the log) is scrolled to its end after the next layout
when its content changed, not by forcing a layout now.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

# A placeholder no text of a player can forge: it holds a random word of this page's own.
_NONCE = secrets.token_hex(8)
_COLLECTED: list[dict[str, Any]] = []


def part(part_id: str, inner: str | list[str]) -> str:
    """``inner`` (HTML, or items of one element each) as the content of the element whose id is
    ``part_id``."""
    if not _COLLECTED:
        return "".join(inner)
    _COLLECTED[-1][part_id] = inner
    return f"\ue000{_NONCE}:{part_id}\ue001"


def boxed(box_id: str, inner: str) -> str:
    """``inner`` (whole elements, their attributes too) as a part, in a box of its own that the
    page lays out as if it were not there (``.part-box``: ``display: contents``). An element
    whose attributes change with most entries — a seat's classes, the turn's data — then
    changes its part alone, and the skeleton stays the one the page was told last."""
    return f'<div id="{box_id}" class="part-box">{part(box_id, inner)}</div>'


class Marked:
    """``render()`` with its parts taken out: ``skeleton`` (each part's element empty) and
    ``parts`` (each part's HTML or items by its element's id)."""

    def __init__(self, render: Callable[[], str]) -> None:
        self.parts: dict[str, Any] = {}
        _COLLECTED.append(self.parts)
        try:
            self.marked = self.skeleton = render()
        finally:
            _COLLECTED.pop()
        for part_id in self.parts:
            self.skeleton = self.skeleton.replace(f"\ue000{_NONCE}:{part_id}\ue001", "")

    def html(self) -> str:
        """The whole HTML, as the render gives it outside ``Marked``."""
        html = self.marked
        for part_id, inner in self.parts.items():
            html = html.replace(f"\ue000{_NONCE}:{part_id}\ue001", "".join(inner))
        return html


def list_shift(was: list[str], now: list[str]) -> tuple[int, list[str]] | None:
    """``(dropped, added)`` such that ``was[dropped:] + added == now`` with ``was[dropped:]`` kept
    as long as it can be, or ``None`` when ``now`` does not continue any end of ``was``."""
    for dropped in range(len(was) + 1):
        kept = len(was) - dropped
        fits = kept <= len(now) and (not kept or was[dropped] == now[0])
        if fits and was[dropped:] == now[:kept]:
            return None if kept == 0 < dropped else (dropped, now[kept:])
    return None


class Memo:
    """One piece of the panel, rendered again only when what it is drawn from changed: equal
    ``inputs`` give the last render's HTML (and, inside ``Marked``, its parts again). Most of a
    game's entries change no view (a seat's random share, a key for someone else's card), and
    the page is redrawn for each. The inputs are kept for the next comparison: they must not be
    changed afterwards (hand over copies of lists the caller changes in place)."""

    def __init__(self) -> None:
        self._inputs: Any = None
        self._marked = False
        self._html = ""
        self._parts: dict[str, Any] = {}

    def render(self, inputs: tuple[Any, ...], render: Callable[[], str]) -> str:
        marked = bool(_COLLECTED)
        if self._inputs is None or marked != self._marked or inputs != self._inputs:
            collected: dict[str, Any] = {}
            if marked:
                _COLLECTED.append(collected)
            try:
                html = render()
            finally:
                if marked:
                    _COLLECTED.pop()
            self._inputs, self._marked, self._html, self._parts = inputs, marked, html, collected
        if marked:
            _COLLECTED[-1].update(self._parts)
        return self._html


class Told:
    """What the page was handed last (``morphParts``): the skeleton and each part."""

    def __init__(self) -> None:
        self.skeleton = ""
        self.parts: dict[str, Any] = {}

    def tell(self, drawn: Marked, again: bool = False) -> tuple[str | None, str] | None:
        """``(skeleton, changes)`` to hand ``morphParts`` for ``drawn``, or ``None`` when the
        page shows it already (``again``: tell it anyway, the panel being empty). A part told
        before and unchanged is not told again; a list that moved is told by its ends; the
        skeleton is ``None`` when it is the one told last (the page neither parses nor
        compares it)."""
        whole, moved = {}, {}
        for part_id, now in drawn.parts.items():
            was = self.parts.get(part_id)
            if was == now:
                continue
            shift = list_shift(was, now) if type(was) is type(now) is list else None
            if shift is None:
                whole[part_id] = now
            else:
                moved[part_id] = shift
        same = drawn.skeleton == self.skeleton and not again
        if same and not whole and not moved:
            return None
        self.skeleton = drawn.skeleton
        self.parts.update(drawn.parts)
        told = {"ids": list(drawn.parts), "whole": whole, "moved": moved}
        return None if same else drawn.skeleton, json.dumps(told, ensure_ascii=False)

    def forget(self, part_id: str) -> None:
        """The page changed that part's content itself (a note written in place): the next
        redraw tells it again, even if it is the one told last."""
        self.parts.pop(part_id, None)
