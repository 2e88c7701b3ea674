"""The shapes of «Схватка»'s free-form moves (``engine.core.shapes``), by phase; ``skip`` is the
table's answer for an absent player wherever only that player's secrets could answer."""

from __future__ import annotations

from engine.core.shapes import CARD, COMMIT, INDEX, SLOT, Int, ListOf, Maybe, Move, Record, Shapes

SKIP = Move()
PLACE = Maybe(CARD)
"""Where a card goes in the spell (``source``, ``quality``, ``delivery``); a wild card names it."""
CARD_OPENING = Record({"index": INDEX, "slot": SLOT, "card": CARD}, {"as": PLACE})

SHAPES: Shapes = {
    "assembly": {"seal": Move({"commit": COMMIT}), "skip": SKIP},
    "initiative": {
        "initiative": Move({"open": ListOf(Record({"index": INDEX}, {"initiative": Int()}))}),
        "skip": SKIP,
    },
    "open": {"open": Move({"open": ListOf(CARD_OPENING)}), "skip": SKIP},
    "treasure": {"treasure": Move({"use": Maybe(CARD)}, {"slots": ListOf(SLOT)})},
    "drop": {"drop": Move({"index": INDEX, "slot": SLOT}, {"as": PLACE}), "skip": SKIP},
    "surprise": {"surprise": Move({"open": ListOf(CARD_OPENING)}), "skip": SKIP},
}
