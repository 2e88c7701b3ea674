"""The table panel's parts: the pieces of its HTML a redraw hands to the page one by one.

A board marks an element's content as a part (``part``: patched node by node, ``listed``: a
list of items, such as the log, which only grows at the end and loses lines at the start). A
render through ``marked`` collects each part's content and leaves a placeholder in its place,
so the panel's HTML becomes a skeleton (every part's element there, empty) and the parts. The
page's redraw (``TableUI.render``, ``morph.js`` ``morphParts``) then parses and compares the
skeleton and only the parts whose content changed, and a log that moved by a few lines gets
those lines only. Outside ``marked`` a part is its content: the HTML is the one the page
shows. Pure Python.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# A placeholder no text of a player can forge: it holds a random word of this page's own.
_NONCE = secrets.token_hex(8)
_COLLECTED: list[dict[str, str | list[str]]] = []


def _token(part_id: str) -> str:
    return f"\ue000{_NONCE}:{part_id}\ue001"


def part(part_id: str, inner: str) -> str:
    """``inner`` as the content of the element whose id is ``part_id``."""
    if not _COLLECTED:
        return inner
    _COLLECTED[-1][part_id] = inner
    return _token(part_id)


def listed(part_id: str, items: Sequence[str]) -> str:
    """``items`` (each one element) as the content of the element whose id is ``part_id``."""
    if not _COLLECTED:
        return "".join(items)
    _COLLECTED[-1][part_id] = list(items)
    return _token(part_id)


@dataclass(frozen=True)
class Marked:
    """A render with its parts taken out: ``skeleton`` (each part's element empty) and each
    part's content by id."""

    marked: str
    parts: dict[str, str | list[str]]

    @property
    def skeleton(self) -> str:
        html = self.marked
        for part_id in self.parts:
            html = html.replace(_token(part_id), "")
        return html

    def html(self) -> str:
        """The whole HTML, as the render gives it outside ``marked``."""
        html = self.marked
        for part_id, inner in self.parts.items():
            text = inner if isinstance(inner, str) else "".join(inner)
            html = html.replace(_token(part_id), text)
        return html


def marked(render: Callable[[], str]) -> Marked:
    """``render()`` with its parts collected and a placeholder left in place of each."""
    collected: dict[str, str | list[str]] = {}
    _COLLECTED.append(collected)
    try:
        html = render()
    finally:
        _COLLECTED.pop()
    return Marked(html, collected)


def changes(
    before: dict[str, str | list[str]], after: dict[str, str | list[str]]
) -> tuple[dict[str, str | list[str]], dict[str, tuple[int, list[str]]]]:
    """What the page must be told of the parts ``after``, having been told ``before``: the parts
    to set anew, and for a list that moved, how many items it lost at its start and the items
    it gained at its end. A part told before and unchanged is not told again."""
    whole: dict[str, str | list[str]] = {}
    moved: dict[str, tuple[int, list[str]]] = {}
    for part_id, now in after.items():
        was = before.get(part_id)
        if was == now:
            continue
        if isinstance(now, list) and isinstance(was, list):
            shift = list_shift(was, now)
            if shift is not None:
                moved[part_id] = shift
                continue
        whole[part_id] = now
    return whole, moved


def list_shift(was: list[str], now: list[str]) -> tuple[int, list[str]] | None:
    """``(dropped, added)`` such that ``was[dropped:] + added == now`` with ``was[dropped:]`` kept
    as long as it can be, or ``None`` when ``now`` does not continue any end of ``was``."""
    for dropped in range(len(was) + 1):
        kept = len(was) - dropped
        if kept > len(now):
            continue
        if kept and was[dropped] != now[0]:
            continue
        if was[dropped:] == now[:kept]:
            if dropped and dropped == len(was) and was:
                return None  # nothing kept: say it whole
            return dropped, now[kept:]
    return None


class Told:
    """What the page was handed last (``morphParts``): the skeleton and each part."""

    def __init__(self) -> None:
        self.skeleton = ""
        self.parts: dict[str, str | list[str]] = {}

    def tell(self, drawn: Marked, again: bool = False) -> tuple[str, str] | None:
        """``(skeleton, changes)`` to hand ``morphParts`` for ``drawn``, or ``None`` when the
        page shows it already (``again``: tell it anyway, the panel being empty)."""
        skeleton = drawn.skeleton
        whole, moved = changes(self.parts, drawn.parts)
        if skeleton == self.skeleton and not whole and not moved and not again:
            return None
        self.skeleton = skeleton
        self.parts.update(drawn.parts)
        told = {"ids": list(drawn.parts), "whole": whole, "moved": moved}
        return skeleton, json.dumps(told, ensure_ascii=False)
