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
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.core.model import IllegalAction

NONE: frozenset[str] = frozenset()
MAX_ITEMS = 64
"""The longest list a move carries (the table takes at most 64 commitments or openings)."""


class Field(Protocol):
    """One field's kind: ``check`` raises ``IllegalAction`` naming ``where`` when ``value`` is not
    of it."""

    def check(self, value: object, where: str) -> None: ...


def refuse(where: str, what: str) -> IllegalAction:
    return IllegalAction(f"неверный ход: {where} — ожидается {what}")


@dataclass(frozen=True, slots=True)
class Int:
    """An integer (``true`` is not one) in ``lo..hi`` when they are given."""

    lo: int | None = None
    hi: int | None = None

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
    """A string of at most ``longest`` characters."""

    longest: int = 256

    def check(self, value: object, where: str) -> None:
        if type(value) is not str or len(value) > self.longest:
            raise refuse(where, "строка")


@dataclass(frozen=True, slots=True)
class Bool:
    """``true`` or ``false``."""

    def check(self, value: object, where: str) -> None:
        if type(value) is not bool:
            raise refuse(where, "true или false")


@dataclass(frozen=True, slots=True)
class Maybe:
    """``null`` or a value of ``kind``."""

    kind: Field

    def check(self, value: object, where: str) -> None:
        if value is not None:
            self.kind.check(value, where)


@dataclass(frozen=True, slots=True)
class ListOf:
    """A list of ``shortest``..``longest`` items of ``item``."""

    item: Field
    shortest: int = 0
    longest: int = MAX_ITEMS

    def check(self, value: object, where: str) -> None:
        if type(value) is not list or not self.shortest <= len(value) <= self.longest:
            raise refuse(where, f"список из {self.shortest}..{self.longest}")
        for i, item in enumerate(value):
            self.item.check(item, f"{where}[{i}]")


@dataclass(frozen=True)
class Record:
    """A JSON object: the ``needs`` fields present, the ``may`` fields when present (``null``
    only if their kind allows it), and no other field unless ``extra`` (an opening, say, which
    carries the fields of the item its author committed to)."""

    needs: Mapping[str, Field] = field(default_factory=dict)
    may: Mapping[str, Field] = field(default_factory=dict)
    extra: bool = False

    def check(self, value: object, where: str) -> None:
        if type(value) is not dict:
            raise refuse(where, "объект")
        self.fields(value, where)

    def fields(self, value: Mapping[str, Any], where: str, known: frozenset[str] = NONE) -> None:
        """Check the fields of an object already known to be one (``known``: fields checked
        elsewhere, never unexpected)."""
        for name, kind in self.needs.items():
            if name not in value:
                raise IllegalAction(f"неверный ход: нет поля {where}{name}")
            kind.check(value[name], where + name)
        may = self.may
        for name, kind in may.items():
            if name in value:
                kind.check(value[name], where + name)
        if not self.extra:
            needs = self.needs
            for name in value:
                if name not in needs and name not in may and name not in known:
                    raise IllegalAction(f"неверный ход: лишнее поле {where}{name}")


SEAT = Int(0, 63)
BASE = frozenset(("type", "seat"))
SLOT = Int(0, 1 << 20)
"""A card's slot: a position in a hidden deck."""
INDEX = Int(0, MAX_ITEMS - 1)
"""A commitment's index within its author's latest batch."""
CARD = Str(64)
"""A card's id."""
DIGEST = Str(128)
"""A commitment (the table has checked it is one)."""
COMMIT = ListOf(DIGEST)
"""A sealed choice's commitments, one per item."""


class Move(Record):
    """A move's fields besides ``type`` and ``seat`` (the seat an integer; which seat may move
    is the runner's check, or the race's)."""

    def check(self, value: object, where: str = "") -> None:
        assert type(value) is dict
        SEAT.check(value.get("seat"), "seat")
        self.fields(value, where, BASE)


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
    move.check(action)
