"""The shapes of «Волшебный круг»'s free-form moves (``engine.core.shapes``), by phase: the
scramble's play, its card shown (``open``), a target when the card takes one."""

from __future__ import annotations

from engine.core.shapes import CARD, SLOT, Int, ListOf, Maybe, Move, Record, Shapes

SHAPES: Shapes = {
    "scramble": {
        "play": Move(
            {
                "slot": SLOT,
                "step": Int(0),
                "open": ListOf(Record({"slot": SLOT, "card": CARD}), 1, 1),
            },
            {"target": Maybe(Int())},
        )
    },
}
