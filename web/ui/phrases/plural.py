"""Number agreement (Russian has three forms: 1 карта, 2 карты, 5 карт; English two), and the
parts every game's phrase table shares: the seats' names (``SeatWords``) and the lookup."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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


class SeatWords:
    """What every game's phrases need besides the event: the language and the seats' names."""

    def __init__(self, lang: str, names: Sequence[str]) -> None:
        self.lang = lang
        self.names = names

    def who(self, seat: Any) -> str:
        """A seat's name (``#n`` / ``seat n`` for a seat the names do not cover)."""
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return str(self.names[seat])
        return f"#{seat}" if self.lang == "ru" else f"seat {seat}"
