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


def items(game: str, events: Sequence[Any], lang: str, names: Sequence[str], last: int) -> str:
    """The ``<li>`` items of the last ``last`` entries of ``events``."""
    return "".join(lines(game, events, lang, names, last))


def lines(
    game: str, events: Sequence[Any], lang: str, names: Sequence[str], last: int
) -> list[str]:
    """The last ``last`` entries of ``events`` as ``<li>`` items, one string each."""
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
    return said.items[-last:] if last > 0 else []
