"""The «Невермор» game data: the set-up, slot bookkeeping, draws, seat order and the log.

The state is one JSON dict ``g`` (see ``new_state``). Hidden cards are slots: the main deck is one
hidden deck per *epoch* (``main.0``, ``main.1``... — each round shuffles all 60 cards again, so each
round draws from a fresh epoch; round one continues the deck used to find the dealer), and the Light
and Shadow decks have a few epochs each (a new epoch when one runs out, standing for the reshuffled
discards). Slots are numbered globally in the order of ``deck_layout``.
"""

from __future__ import annotations

from typing import Any

from .cards import MAGIC_SIZE, MAIN_SIZE, Catalog

G = dict[str, Any]
MAGIC_EPOCHS = 4
ZONES = ("hand", "magic", "extra", "placed", "shown", "killed", "look")


def deck_layout(max_rounds: int) -> list[tuple[str, str, int]]:
    """``(deck name, pile, size)`` for every hidden deck, in slot order."""
    out = [(f"main.{e}", "main", MAIN_SIZE) for e in range(max_rounds + 1)]
    out += [(f"light.{e}", "light", MAGIC_SIZE) for e in range(MAGIC_EPOCHS)]
    out += [(f"shadow.{e}", "shadow", MAGIC_SIZE) for e in range(MAGIC_EPOCHS)]
    return out


def new_state(n: int, names: list[str], max_rounds: int) -> G:
    """A game before the first dealer is found (shadow cards already dealt)."""
    piles: dict[str, dict[str, int]] = {}
    base = 0
    for _, pile, size in deck_layout(max_rounds):
        if pile not in piles:
            piles[pile] = {"base": base, "size": size, "epochs": 0, "epoch": 0, "pos": 0}
        piles[pile]["epochs"] += 1
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
        "retired": [],
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
    """Which pile (``main``, ``light``, ``shadow``) a slot belongs to."""
    for name, pile in g["piles"].items():
        if pile["base"] <= slot < pile["base"] + pile["size"] * pile["epochs"]:
            return str(name)
    raise ValueError(f"slot {slot} is not in any deck")


def deck_name(g: G, slot: int) -> str:
    """The hidden deck (``main.2``...) holding a slot."""
    pile = g["piles"][pile_of(g, slot)]
    return f"{pile_of(g, slot)}.{(slot - pile['base']) // pile['size']}"


def draw(g: G, pile_name: str) -> int | None:
    """The next slot of a pile (moving to the next epoch when one runs out), or ``None``."""
    pile = g["piles"][pile_name]
    if pile["pos"] >= pile["size"]:
        if pile["epoch"] + 1 >= pile["epochs"]:
            return None
        pile["epoch"] += 1
        pile["pos"] = 0
    slot = pile["base"] + pile["epoch"] * pile["size"] + pile["pos"]
    pile["pos"] += 1
    return int(slot)


def new_main_epoch(g: G) -> None:
    """Shuffle all 60 main cards again: the unused rest of the old epoch retires."""
    pile = g["piles"]["main"]
    if pile["epoch"] + 1 >= pile["epochs"]:
        return
    start = pile["base"] + pile["epoch"] * pile["size"]
    if pile["pos"] < pile["size"]:
        g["retired"].append([start + pile["pos"], start + pile["size"]])
    pile["epoch"] += 1
    pile["pos"] = 0


def undrawn(g: G) -> list[int]:
    """Slots still in their decks (not yet drawn, not retired)."""
    out: list[int] = []
    for pile in g["piles"].values():
        first = pile["base"] + pile["epoch"] * pile["size"] + pile["pos"]
        out.extend(range(first, pile["base"] + pile["epochs"] * pile["size"]))
    return out


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


def log(g: G, text: str) -> None:
    g["log"].append(text)


def card_name(cat: Catalog, card_id: str) -> str:
    return f"«{cat.name(card_id)}»"
