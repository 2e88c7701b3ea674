"""«Схватка» on the shared step runner (``engine.core.runner``): the copy of its game data.

The state is ``{"g": game data, "inputs": [...], "need": {...}}``; the steps are generators over
a copy of ``g`` (``flow``). What is particular to «Схватка» is how that copy is made: by the
shape of its data (``clone_game``), sharing the records steps never change.
"""

from __future__ import annotations

import marshal
from typing import Any

from engine.core.runner import Ask, Ctx, Need, clone, copied

from .state import State

__all__ = [
    "CTX",
    "SHARED_LISTS",
    "SHARED_MAPS",
    "SHARED_PER_SEAT",
    "Ask",
    "Ctx",
    "Data",
    "G",
    "Need",
    "clone",
    "clone_game",
    "copied",
]

G = State
"""The game data the steps work on (``state.State``)."""
Data = dict[str, Any]
"""Game data of any shape, as the shared runner handles it."""
CTX = Ctx(deck="spells")
"""What the steps ask through: reveals and reshuffles are of the spell deck."""


# How each field is copied. Lists of scalars (ints, strings, bools) and the hands (lists of such
# lists): by slicing; the seats' names and heroes, set once: shared. The agenda's steps, the log's
# events, the fight results and the creatures are records never changed once made (steps add,
# remove or replace them): the records are shared. The sealed spells are never changed in place
# either: a step changes a copy of its own (``Base.own_spell``). What changes a few times a fight
# is shared whole, and the step that changes it takes a copy of its own first: the medals, the
# piles of treasures, ghosts and diseases, the dead and the fight results (``SHARED_LISTS``,
# ``Base.own_list``), the cards shown to all (``SHARED_MAPS``, ``Base.own_known``), and each
# seat's treasures, ghosts, diseases and creatures (``SHARED_PER_SEAT``: the list of seats is
# copied, ``Base.own_seat_list``). The cast, changed in place, is copied by its type
# (``state.Cast``: records of scalars).
# Data of another shape (a scenario's) goes through ``_clone_any`` (marshal for the rest).
# ``tests/rumble/test_replay_digests.py`` checks the clone against a marshal copy at every step of
# seeded games, and that no step changes the data of an earlier state.
_FLAT = frozenset(
    (
        "life", "alive", "kills", "survivals", "draw", "discard", "queue",
        "used", "t_pile", "t_discard", "ghost_pile", "ghost_discard", "bag", "dead_order",
        "pending_ghosts", "winners", "log", "agenda", "results",
    )
)  # fmt: skip
_FIXED = frozenset(("names", "heroes"))  # set when the game starts, never changed: shared
SHARED_LISTS = (
    "kills", "survivals", "t_pile", "t_discard", "ghost_pile", "ghost_discard", "bag",
    "dead_order", "pending_ghosts", "results", "winners",
)  # fmt: skip
SHARED_MAPS = ("known",)
SHARED_PER_SEAT = ("treasures", "ghost_next", "ghost_active", "diseases", "creatures")
_NESTED = frozenset(("hand", *SHARED_PER_SEAT))
_DEEP = ("spell", "cast")
_KEYS = frozenset(
    (
        *_FLAT, *_FIXED, *_NESTED, *_DEEP, "known", "n", "mode", "fights", "fight", "round",
        "in_fight", "turn", "palace", "palace_ghost", "last_standing",
    )
)  # fmt: skip


_copy = list.copy


_usual_order: tuple[str, ...] = ()
"""The order of the keys of the last game data found to hold exactly ``_KEYS``: the data is
copied from one step to the next, so its keys come in the same order, and comparing the order is
cheaper than comparing the set."""


def clone_game(g: Data) -> Data:
    """A copy of the game data that no change a step makes to it can reach back through."""
    global _usual_order
    order = tuple(g)
    if order != _usual_order:
        if len(g) != len(_KEYS) or g.keys() != _KEYS:
            return _clone_any(g)
        _usual_order = order
    out: Data = g.copy()
    out["life"], out["alive"] = g["life"][:], g["alive"][:]
    out["draw"], out["discard"], out["queue"] = g["draw"][:], g["discard"][:], g["queue"][:]
    out["used"], out["log"], out["agenda"] = g["used"][:], g["log"][:], g["agenda"][:]
    out["hand"] = [*map(_copy, g["hand"])]
    out["treasures"], out["ghost_next"] = g["treasures"][:], g["ghost_next"][:]
    out["ghost_active"], out["diseases"] = g["ghost_active"][:], g["diseases"][:]
    out["creatures"] = g["creatures"][:]
    out["spell"] = g["spell"][:]
    cast = g["cast"]
    if cast is not None:
        out["cast"] = {**cast, "cards": [card.copy() for card in cast["cards"]]}
    return out


def _clone_any(g: Data) -> Data:
    """``clone_game`` for data of another shape (a scenario's or an older version's)."""
    out: Data = dict(g)
    deep: Data = {}
    for key, value in g.items():
        if type(value) is list:
            if key in _FLAT:
                out[key] = value[:]
            elif key in _NESTED:
                out[key] = [part[:] for part in value]
            elif key not in _FIXED:
                deep[key] = value
        elif type(value) is dict:
            if key == "known":
                out[key] = value.copy()
            else:
                deep[key] = value
    if deep:
        out.update(marshal.loads(marshal.dumps(deep)))
    return out
