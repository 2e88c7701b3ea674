"""The «Невермор» game data: the set-up, slot bookkeeping, draws, seat order and the log.

The state is one JSON dict ``g`` (see ``new_state``); its ``log`` holds events (``log``).
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

from .cards import MAGIC_SIZE, MAIN_SIZE

G = dict[str, Any]
ZONES = ("hand", "magic", "extra", "placed", "shown", "killed", "look")


def deck_layout() -> list[tuple[str, int]]:
    """``(deck name, size)`` for every hidden deck, in slot order; ``tokens`` holds the four
    resolution tokens, laid face down in a secret order every round after the first."""
    return [("main", MAIN_SIZE), ("light", MAGIC_SIZE), ("shadow", MAGIC_SIZE), ("tokens", 4)]


def new_state(n: int, names: list[str], max_rounds: int) -> G:
    """A game before the first dealer is found (shadow cards already dealt)."""
    piles: dict[str, dict[str, Any]] = {}
    base = 0
    for pile, size in deck_layout():
        piles[pile] = {
            "base": base,
            "size": size,
            "draw": list(range(base, base + size)),
            "shuffles": 0,
        }
        base += size
    small = n <= 4
    g: G = {
        "n": n,
        "names": names,
        "max_hp": 5 if small else 4,
        "revive_hp": 4 if small else 3,
        "max_rounds": max_rounds,
        "total_slots": base,
        "hp": [5 if small else 4] * n,
        "vp": [0] * n,
        "raven": [False] * n,
        "piles": piles,
        "known": {},
        "discard": [],
        "round": 0,
        "dealer": None,
        "drawer": 0,
        "dir": 1,
        "fx": fresh_effects(),
        "entombed": -1,
        "peek": [[] for _ in range(n)],
        "first_plan": ["attack", "healing", "radiance", "victory"],
        "betrayed": False,
        "pass_sealed": {},
        "winner": None,
        "over": False,
        "result": "",
        "log": [],
        "need": None,
        "agenda": [],
    }
    for zone in ZONES:
        g[zone] = [[] for _ in range(n)]
    g.update(fresh_round(n))
    return g


def fresh_effects() -> G:
    """Effects lasting one round."""
    return {
        "no_heal": False,
        "no_attack": False,
        "punish": False,
        "punish_raven": False,
        "darkening": [],
        "banned": [],
        "betray": None,
        "foretell": [],
        "passive": [],
        "freeze": False,
        "gambit": False,
    }


def fresh_round(n: int) -> G:
    """Per-round bookkeeping of the resolution."""
    return {
        "through": [],
        "plan": [],
        "pool": ["attack", "healing", "radiance", "victory"],
        "revealed": [],
        "scry": None,
        "items": [[] for _ in range(n)],
        "opened": [[] for _ in range(n)],
        "doom": [[] for _ in range(n)],
        "extra_used": [0] * n,
        "collected": [[] for _ in range(n)],
        "skulk": [0] * n,
        "sealed": [False] * n,
        "flock": [],
        "got": {},
    }


# ----- slots -----------------------------------------------------------------------------------


def pile_of(g: G, slot: int) -> str:
    """Which hidden deck (``main``, ``light``, ``shadow``) a slot belongs to."""
    for name, pile in g["piles"].items():
        if pile["base"] <= slot < pile["base"] + pile["size"]:
            return str(name)
    raise ValueError(f"slot {slot} is not in any deck")


def pile_slots(g: G, pile_name: str) -> list[int]:
    """Every slot of a pile, ascending."""
    pile = g["piles"][pile_name]
    return list(range(pile["base"], pile["base"] + pile["size"]))


def draw(g: G, pile_name: str) -> int | None:
    """The top slot of a pile, or ``None`` when it is empty (see ``flow.Flow.restock_first``)."""
    order = g["piles"][pile_name]["draw"]
    if not order:
        return None
    return int(order.pop(0))


def discards(g: G, pile_name: str) -> list[int]:
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
