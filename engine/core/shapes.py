"""Declared shapes of free-form moves: what a move must look like before a step reads it.

A need with listed ``options`` is checked by the runner (the move is one of them); a *free-form*
need (a move, simultaneous call or race without options) leaves the move's fields to the step.
Each game declares, per phase of such a need, the move types it accepts and their fields
(``Shapes``); ``StepRules.apply`` checks the move against that ``Shape`` before the step runs, so a
step only ever meets well-formed fields, and whatever it still fails on is the engine's fault
(``EngineError``), never the mover's. What the rules then refuse (a card not in the hand, a seat
that may not) the step raises as ``IllegalAction`` itself.

The vocabulary is small: ``Int`` (never a bool), ``Str``, ``Bool``, ``Maybe`` (or ``null``),
``ListOf``, ``Record`` (a JSON object) and ``Move`` (a move: ``type`` and ``seat`` are implied).
Every move of a game passes through its shape, so a ``Move`` is tested by one expression made
from its fields once (``source``: a few type checks per field, no call per field); only a move
that fails it is walked field by field (``check``) for the message naming what is wrong.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.core.model import IllegalAction

MAX_ITEMS = 64
"""The longest list a move carries (the table takes at most 64 commitments or openings)."""


class Names:
    """What a test's source needs besides its variables: fresh names, and constants by name."""

    def __init__(self) -> None:
        self.counter: Iterator[int] = itertools.count()
        self.constants: dict[str, object] = {}

    def fresh(self) -> str:
        return f"v{next(self.counter)}"

    def constant(self, value: object) -> str:
        name = f"c{next(self.counter)}"
        self.constants[name] = value
        return name


class Field(Protocol):
    """One field's kind: ``source`` is a Python expression true when the variable ``var`` holds
    a value of it; ``check`` raises ``IllegalAction`` naming ``where`` when ``value`` is not."""

    def source(self, var: str, names: Names) -> str: ...

    def check(self, value: object, where: str) -> None: ...


def refuse(where: str, what: str) -> IllegalAction:
    return IllegalAction(f"неверный ход: {where} — ожидается {what}")


@dataclass(frozen=True, slots=True)
class Int:
    """An integer (``true`` is not one) in ``lo..hi`` when they are given."""

    lo: int | None = None
    hi: int | None = None

    def source(self, var: str, names: Names) -> str:
        lo = "" if self.lo is None else f"{self.lo} <= "
        hi = "" if self.hi is None else f" <= {self.hi}"
        return f"(type({var}) is int and {lo}{var}{hi})" if lo or hi else f"(type({var}) is int)"

    def check(self, value: object, where: str) -> None:
        if (
            type(value) is not int
            or (self.lo is not None and value < self.lo)
            or (self.hi is not None and value > self.hi)
        ):
            lo = "" if self.lo is None else str(self.lo)
            hi = "" if self.hi is None else str(self.hi)
            raise refuse(where, f"целое {lo}..{hi}" if lo or hi else "целое")


@dataclass(frozen=True, slots=True)
class Str:
    """A string (a card's id, a commitment: the rules compare it with what they know)."""

    def source(self, var: str, names: Names) -> str:
        return f"(type({var}) is str)"

    def check(self, value: object, where: str) -> None:
        if type(value) is not str:
            raise refuse(where, "строка")


@dataclass(frozen=True, slots=True)
class Bool:
    """``true`` or ``false``."""

    def source(self, var: str, names: Names) -> str:
        return f"(type({var}) is bool)"

    def check(self, value: object, where: str) -> None:
        if type(value) is not bool:
            raise refuse(where, "true или false")


@dataclass(frozen=True, slots=True)
class Maybe:
    """``null`` or a value of ``kind``."""

    kind: Field

    def source(self, var: str, names: Names) -> str:
        return f"({var} is None or {self.kind.source(var, names)})"

    def check(self, value: object, where: str) -> None:
        if value is not None:
            self.kind.check(value, where)


@dataclass(frozen=True, slots=True)
class ListOf:
    """A list of ``shortest``..``longest`` items of ``item``."""

    item: Field
    shortest: int = 0
    longest: int = MAX_ITEMS

    def source(self, var: str, names: Names) -> str:
        if isinstance(self.item, Str):  # (the commitments of a seal: one test, no loop)
            items = f"{{*map(type, {var})}} <= {names.constant(frozenset((str,)))}"
        else:
            each = names.fresh()
            items = f"all({self.item.source(each, names)} for {each} in {var})"
        size = f"{self.shortest} <= len({var}) <= {self.longest}"
        return f"(type({var}) is list and {size} and {items})"

    def check(self, value: object, where: str) -> None:
        if type(value) is not list or not self.shortest <= len(value) <= self.longest:
            raise refuse(where, f"список из {self.shortest}..{self.longest}")
        for i, item in enumerate(value):
            self.item.check(item, f"{where}[{i}]")


class Record:
    """A JSON object: the ``needs`` fields present, the ``may`` fields when present (``null``
    only if their kind allows it), and no other field unless ``extra`` (an opening, say, which
    carries the fields of the item its author committed to)."""

    known: frozenset[str] = frozenset()
    """Fields always allowed (checked elsewhere)."""

    def __init__(
        self,
        needs: Mapping[str, Field] | None = None,
        may: Mapping[str, Field] | None = None,
        extra: bool = False,
    ) -> None:
        self.needs = dict(needs or {})
        self.may = dict(may or {})
        self.extra = extra
        self.allowed = frozenset(self.needs) | frozenset(self.may) | self.known

    def source(self, var: str, names: Names) -> str:
        return f"(type({var}) is dict and {self.fields_source(var, names)})"

    def fields_source(self, var: str, names: Names) -> str:
        """The test of the fields of an object ``var`` already known to be one."""
        tests = ["True"]
        for name, kind in self.needs.items():
            tests += [f"{name!r} in {var}", kind.source(f"{var}[{name!r}]", names)]
        for name, kind in self.may.items():
            tests.append(f"({name!r} not in {var} or {kind.source(f'{var}[{name!r}]', names)})")
        if not self.extra:
            tests.append(f"{names.constant(self.allowed)}.issuperset({var})")
        return " and ".join(tests[1:] or tests)

    def check(self, value: object, where: str) -> None:
        if type(value) is not dict:
            raise refuse(where, "объект")
        for name, kind in self.needs.items():
            if name not in value:
                raise IllegalAction(f"неверный ход: нет поля {where}{name}")
            kind.check(value[name], where + name)
        for name, kind in self.may.items():
            if name in value:
                kind.check(value[name], where + name)
        if not self.extra:
            for name in value:
                if name not in self.allowed:
                    raise IllegalAction(f"неверный ход: лишнее поле {where}{name!r}")


SEAT = Int()
"""A seat (which seats may move is the runner's check, or the race's)."""
SLOT = Int(0, 1 << 20)
"""A card's slot: a position in a hidden deck."""
INDEX = Int(0, MAX_ITEMS - 1)
"""A commitment's index within its author's latest batch."""
CARD = Str()
"""A card's id."""
DIGEST = Str()
"""A commitment (the table has checked it is one)."""
COMMIT = ListOf(DIGEST)
"""A sealed choice's commitments, one per item."""


BUILTINS = {"type": type, "len": len, "all": all, "int": int, "str": str, "bool": bool}
BUILTINS |= {"list": list, "dict": dict, "map": map}
"""All that a move's test refers to besides its constants."""


class Move(Record):
    """A move's fields besides ``type`` and ``seat`` (the seat an integer; which seat may move
    is the runner's check, or the race's); ``ok`` is its test, made once."""

    known = frozenset(("type", "seat"))

    def __init__(
        self,
        needs: Mapping[str, Field] | None = None,
        may: Mapping[str, Field] | None = None,
        extra: bool = False,
    ) -> None:
        super().__init__(needs, may, extra)
        names = Names()
        seat = SEAT.source("v['seat']", names)  # (``apply`` has made the move a plain dict)
        test = f"'seat' in v and {seat} and {self.fields_source('v', names)}"
        scope = {"__builtins__": {}, **BUILTINS, **names.constants}
        self.ok: Callable[[Mapping[str, Any]], bool] = eval(f"lambda v: {test}", scope)

    def check(self, value: object, where: str = "") -> None:
        if type(value) is dict:
            SEAT.check(value.get("seat"), "seat")
        Record.check(self, value, where)


Shape = Mapping[str, Move]
"""The moves a free-form need accepts, by ``type``."""
Shapes = Mapping[str, Shape]
"""A game's shapes, by the phase of the need."""


def check_shape(shape: Shape, action: Mapping[str, Any]) -> None:
    """Refuse (``IllegalAction``) a move that is not of ``shape``: its ``type`` unknown to it, or
    a field missing, of the wrong kind or unexpected."""
    typ = action.get("type")
    move = shape.get(typ) if type(typ) is str else None
    if move is None:
        known = ", ".join(sorted(shape))
        raise IllegalAction(f"неверный ход: тип {typ!r} здесь не принимается (ждём: {known})")
    if not move.ok(action):
        move.check(action)
        raise AssertionError(f"{typ}: a move's test and its check disagree")
