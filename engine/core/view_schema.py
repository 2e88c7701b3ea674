"""The part of every game's view that the page reads the same way for all games.

Each game's ``Rules.view`` returns its own fields and, under ``KEY`` (``"table"``), a
``TableView``: the seats (name, still in, life, score, cards in hand, public marks), whose turn it
is, the prompt (what the table waits for, from whom, the public options, the kind of timer) and the
public piles. The page draws seats, turn and prompt from it alone, so it never reads a game's
internals for them. ``problems`` checks a value against the schema (the tests run it over views at
every step of seeded games); ``table_of`` is the page's checked read.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from functools import cache
from typing import (
    Any,
    Literal,
    TypedDict,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from engine.core.model import Action
from engine.core.runner import NeedKind

KEY = "table"
"""Where a view holds its ``TableView``."""

Mark = Literal["turn", "totem", "palace", "dealer", "raven", "winner", "shield", "frozen"]
"""A public marker beside a seat: its turn, the totem, the Palace, the dealer, a raven, a winner,
a shield or a freeze for this turn."""
Pick = Literal["seat", "card", "suit", "flag", "price"]
"""What a choice's options pick: a seat (a player), a card slot, a suit, yes or no, a price."""
Timer = Literal["turn", "race"]
"""``turn``: each seat waited on has the table's timer for its move; ``race``: real time, the
table settles when the countdown runs out with no play."""


class SeatView(TypedDict):
    """One seat as every game shows it."""

    seat: int
    name: str
    """The player's name as the game knows it ("" when it does not: the room's name is used)."""
    out: bool
    """Out of the game for now (dead in this fight, knocked out)."""
    life: int | None
    score: int | None
    """The game's score: medals, victory points, points (None while a game has none)."""
    hand: int
    """Cards in hand."""
    marks: list[Mark]


class Prompt(TypedDict):
    """What the table waits for."""

    kind: NeedKind
    phase: str
    seats: list[int]
    """The seats waited on (none when the table itself acts: a chance, a reveal, a reshuffle)."""
    mine: bool
    """The viewing seat is among ``seats``."""
    options: list[Action]
    """The public options of the choice, when the game lists them (else the moves are the seat's
    own legal actions)."""
    picks: Pick | None
    """What the options' ``pick`` names, when the game declares it (so the page labels a seat
    with its player's name, a card with its card's)."""
    timer: Timer | None


class PileView(TypedDict):
    """A public pile: its name, how many cards, the face-up top card if any."""

    name: str
    count: int
    top: str | None


class TableView(TypedDict):
    """The shared part of a view (under ``KEY``)."""

    seats: list[SeatView]
    turn: int | None
    """The seat whose turn it is (None when nobody's: a simultaneous phase, between turns)."""
    prompt: Prompt
    piles: list[PileView]
    over: bool
    winners: list[int]


def prompt(need: Mapping[str, Any], viewer: int | None, picks: Pick | None = None) -> Prompt:
    """The prompt of a runner's ``need`` (``engine.core.runner.Need``) as ``viewer`` sees it;
    ``picks``: what its options pick, as the game declares."""
    kind: NeedKind = need["kind"]
    seats = [int(s) for s in need.get("seats", [])]
    timer: Timer | None = (
        "race" if kind == "race" else "turn" if kind in ("move", "simultaneous") else None
    )
    return {
        "kind": kind,
        "phase": str(need.get("phase", "")),
        "seats": seats,
        "mine": viewer is not None and viewer in seats,
        "options": [dict(o) for o in need.get("options", [])],
        "picks": picks,
        "timer": timer,
    }


def pile(name: str, count: int, top: str | None = None) -> PileView:
    """A public pile."""
    return {"name": name, "count": count, "top": top}


def seat(
    seat: int, name: str, hand: int, *, out: bool = False, life: int | None = None,
    score: int | None = None, marks: list[Mark] | None = None,
) -> SeatView:  # fmt: skip
    """One seat."""
    return {
        "seat": seat,
        "name": name,
        "out": out,
        "life": life,
        "score": score,
        "hand": hand,
        "marks": marks or [],
    }


@cache
def _fields(hint: Any) -> tuple[dict[str, Any], frozenset[str]]:
    """A TypedDict's field types and its required keys, worked out once: the page checks its
    view on every redraw, and resolving the hints is most of that check's time under Pyodide."""
    return get_type_hints(hint), getattr(hint, "__required_keys__", frozenset())


def problems(value: object, hint: object = TableView, where: str = KEY) -> list[str]:
    """Where ``value`` breaks the schema ``hint`` (a ``TableView`` by default): a missing or an
    unknown field, a wrong type, a value outside its ``Literal``; empty when it fits."""
    origin = get_origin(hint)
    if hint is Any:
        return []
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: ожидался объект, а не {value!r}"]
        fields, required = _fields(hint)
        out = [f"{where}.{k}: нет поля" for k in sorted(required) if k not in value]
        out += [f"{where}.{k}: лишнее поле" for k in value if k not in fields]
        for key, sub in fields.items():
            if key in value:
                out += problems(value[key], sub, f"{where}.{key}")
        return out
    if origin is Literal:
        ok = any(value == a and type(value) is type(a) for a in get_args(hint))
        return [] if ok else [f"{where}: {value!r} не из {get_args(hint)}"]
    if origin in (Union, types.UnionType):
        if any(not problems(value, a, where) for a in get_args(hint)):
            return []
        return [f"{where}: {value!r} не {hint}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: ожидался список, а не {value!r}"]
        (item,) = get_args(hint)
        return [p for i, v in enumerate(value) for p in problems(v, item, f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: ожидался объект, а не {value!r}"]
        key_hint, item = get_args(hint)
        return [
            p
            for k, v in value.items()
            for p in problems(k, key_hint, f"{where} (ключ)") + problems(v, item, f"{where}.{k}")
        ]
    for simple in (type(None), bool, int, str):  # exactly: a bool is no int here
        if hint is simple:
            return [] if type(value) is simple else [f"{where}: {value!r} не {simple.__name__}"]
    raise TypeError(f"схема: тип {hint!r} не поддержан")


def table_of(view: object) -> TableView | None:
    """The shared part of a game's view; None when the view has none or lacks one of its fields
    (the page then shows the game without it). The view comes from this page's own engine, whose
    views the engine tests check against the whole schema at every step of seeded games, so a
    redraw checks only that the part is there (a full check took a redraw's quarter)."""
    if not isinstance(view, dict):
        return None
    table = view.get(KEY)
    required = _fields(TableView)[1]
    if not isinstance(table, dict) or not required <= table.keys():
        return None
    return cast(TableView, table)  # made by this page's own engine: its fields are tested
