"""The shapes of «Проба»'s free-form moves (``engine.core.shapes``), by phase."""

from __future__ import annotations

from engine.core.shapes import CARD, COMMIT, INDEX, SLOT, Int, ListOf, Move, Record, Shapes

SEAL = Move({"commit": COMMIT})
OPEN = Move({"open": ListOf(Record({"index": INDEX, "slot": SLOT, "card": CARD}))})

SHAPES: Shapes = {
    "seal": {"seal": SEAL},
    "pass": {"pass": Move({"slot": SLOT})},
    "open": {"open": OPEN},
    "reseal": {"seal": SEAL},
    "reopen": {"open": OPEN},
    "bid": {"bid": Move({"amount": Int()})},
}
