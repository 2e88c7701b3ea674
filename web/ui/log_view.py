"""The log's items as HTML, each entry said once: a game log only grows, so a redraw renders only
the entries added since the last one (with their pictures, ``log_icons``) and keeps the rest.

Anything else — another game, language or seat names, or a log whose known part changed (a
new game, a reload) — starts again from nothing. Pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import log_icons
from .phrases import render_log


@dataclass
class _Said:
    key: tuple[str, str, tuple[str, ...]] = ("", "", ())
    events: list[Any] = field(default_factory=list)
    items: list[str] = field(default_factory=list)


_SAID: dict[str, _Said] = {}
# The boards' logs drop their oldest lines this many at a time (``first_shown``): each drop moves
# every kept line, and the page lays them all out again (each line paints apart, style.css, but
# a moved line is still placed anew), so drops are rare and keep no more lines than they drop.
STEP = 100


def items(
    game: str, events: Sequence[Any], lang: str, names: Sequence[str], last: int, step: int = 1
) -> str:
    """The ``<li>`` items of ``lines``, joined."""
    return "".join(lines(game, events, lang, names, last, step))


def first_shown(count: int, last: int, step: int = 1) -> int:
    """Where the shown lines of a log of ``count`` entries start: at least the last ``last`` are
    shown, and the start moves by whole ``step`` entries (``last`` to ``last + step - 1`` shown).

    Each time the start moves, every shown line moves up and the page lays out the whole log; with
    a ``step`` of 100 that happens once every 100 entries instead of with every entry."""
    if last <= 0:
        return count
    dropped = max(0, count - last)
    return dropped - dropped % max(1, step)


def lines(
    game: str, events: Sequence[Any], lang: str, names: Sequence[str], last: int, step: int = 1
) -> list[str]:
    """The entries of ``events`` from ``first_shown`` on as ``<li>`` items, one string each."""
    said = _SAID.setdefault(game, _Said())
    key = (game, lang, tuple(str(n) for n in names))
    known = len(said.events)
    if (
        said.key != key
        or known > len(events)
        or (known and said.events[-1] != events[known - 1])
        or (known and said.events[0] != events[0])
    ):
        said.key, said.events, said.items = key, [], []
        known = 0
    new = list(events[known:])
    texts = render_log(game, new, lang, key[2])
    said.items += [log_icons.line(game, e, t) for e, t in zip(new, texts, strict=True)]
    said.events += new
    return said.items[first_shown(len(said.items), last, step) :]
