"""The «Невермор» game data: the set-up, slot bookkeeping, draws, seat order and the log.

The state is one JSON dict ``g`` (``state.State``, set up by ``state.new_state``); its ``log``
holds events (``log``).
Hidden cards are slots of four hidden decks, numbered globally in the order of ``deck_layout``:
``main`` (60 slots), ``light`` and ``shadow`` (25 each), and the four resolution tokens
(``tokens``), 114 slots in all. Each pile keeps its draw order as a list of slots
(``piles[p]["draw"]``, drawn from the front). The main deck is gathered and re-shuffled by the
table between rounds (a REVEAL of its slots whose identity is not public yet, then a RESHUFFLE of
all 60); a pile that runs short in the middle of a round is topped up with its own discards,
re-shuffled the same way (``flow.Flow.t_restock``). A re-shuffled slot is dealt again from the
pile's draw order, which lists re-shuffled slots in ascending order.
"""

from __future__ import annotations

from typing import Any

from .state import ZONES, PileName, State, deck_layout, new_state

__all__ = ["ZONES", "G", "deck_layout", "new_state"]

G = State


# ----- slots -----------------------------------------------------------------------------------


def pile_of(g: G, slot: int) -> PileName:
    """Which hidden deck (``main``, ``light``, ``shadow``, ``tokens``) a slot belongs to."""
    for name, pile in g["piles"].items():
        if pile["base"] <= slot < pile["base"] + pile["size"]:
            return name
    raise ValueError(f"slot {slot} is not in any deck")


def pile_slots(g: G, pile_name: PileName) -> list[int]:
    """Every slot of a pile, ascending."""
    pile = g["piles"][pile_name]
    return list(range(pile["base"], pile["base"] + pile["size"]))


def draw(g: G, pile_name: PileName) -> int | None:
    """The top slot of a pile, or ``None`` when it is empty (see ``flow.Flow.restock_first``)."""
    order = g["piles"][pile_name]["draw"]
    if not order:
        return None
    return int(order.pop(0))


def discards(g: G, pile_name: PileName) -> list[int]:
    """The pile's slots in the discard, ascending (what a re-shuffle turns into its deck)."""
    return sorted(s for s in g["discard"] if pile_of(g, s) == pile_name)


def undrawn(g: G) -> list[int]:
    """Slots still in their decks, every pile."""
    out: list[int] = []
    for pile in g["piles"].values():
        out.extend(pile["draw"])
    return out


def hidden(g: G, slots: list[int]) -> list[int]:
    """Those of ``slots`` whose identity is not public, ascending."""
    return sorted(s for s in slots if str(s) not in g["known"])


def card(g: G, slot: int) -> str | None:
    """The public identity of a slot, if revealed."""
    value = g["known"].get(str(slot))
    return str(value) if value is not None else None


# ----- seats -----------------------------------------------------------------------------------


def priority(g: G) -> list[int]:
    """Seats from the dealer's neighbour in the draft direction round to the dealer (last)."""
    n, dealer = g["n"], g["dealer"] or 0
    return [(dealer + g["dir"] * k) % n for k in range(1, n + 1)]


def dealer(g: G) -> int:
    """The dealer of the round (there is one once the first dealer is found)."""
    seat = g["dealer"]
    if seat is None:
        raise KeyError("no dealer has been found yet")
    return seat


def humans(g: G) -> list[int]:
    return [s for s in range(g["n"]) if not g["raven"][s]]


def name(g: G, seat: int) -> str:
    return str(g["names"][seat])


def log(g: G, kind: str, **args: Any) -> None:
    """Log one event ``{"e": kind, ...args}`` (seats, card ids, numbers; ``web.ui.phrases``
    says it in words)."""
    g["log"].append({"e": kind, **args})


# Why damage is dealt: a reason code (a magic card's id, or one of these) and the label an open
# damage event records in the state (``suits.Suits.harm``), as the recorded digests have it.
REASONS = {
    "attack": "атака",
    "peck": "клевок",
    "flock": "стая воронов",
    "healing_reversed": "Лечение обращено",
    "penance": "Кара",
    "spite": "Злоба",
    "withering": "Увядание",
    "waning_light": "Тусклый свет",
    "drain": "Иссушение",
    "retribution": "Возмездие",
}
REASON_OF = {label: code for code, label in REASONS.items()}
