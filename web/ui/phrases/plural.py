"""Number agreement (Russian has three forms: 1 карта, 2 карты, 5 карт; English two), and the
lookup every game's phrase table shares."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def ru(n: int, one: str, few: str, many: str) -> str:
    """``n`` with the Russian form that agrees with it: 1, 21 → one; 2–4, 22–24 → few; else many."""
    tail = abs(n) % 100
    if 11 <= tail <= 14:
        form = many
    elif tail % 10 == 1:
        form = one
    elif 2 <= tail % 10 <= 4:
        form = few
    else:
        form = many
    return f"{n} {form}"


def en(n: int, one: str, other: str) -> str:
    """``n`` with the English form that agrees with it."""
    return f"{n} {one if n == 1 else other}"


def phrase_of(
    ru: Mapping[str, Callable[[Any, Any], str]],
    en: Mapping[str, Callable[[Any, Any], str]],
    event: Mapping[str, Any],
    lang: str,
    words: Any,
) -> str:
    """A game's sentence for ``event`` from its Russian or English table (an unknown kind is
    shown as its name)."""
    phrase = (en if lang == "en" else ru).get(str(event.get("e")))
    return phrase(event, words) if phrase else str(event.get("e"))
