"""The shapes of «Невермор»'s free-form moves (``engine.core.shapes``), by phase of the generic
need (``agenda``); a choice among options (``choose``) is the runner's to check."""

from __future__ import annotations

from engine.core.shapes import (
    CARD,
    COMMIT,
    INDEX,
    SLOT,
    Bool,
    ListOf,
    Move,
    Record,
    Shapes,
    Str,
)

CARD_OPENING = Record({"index": INDEX, "slot": SLOT, "card": CARD, "doom": Bool()})
"""A sealed hand card opened: its slot, its card and whether a raven destroys it."""
GIVE_UP = ListOf(Record(extra=True), 0, 0)
"""``"open": []``: the sealed pass is given up (its first cards are passed)."""
TOKEN_OPENING = Record({"index": INDEX, "token": Str()})


def opening(typ: str) -> dict[str, Move]:
    return {typ: Move({"open": ListOf(CARD_OPENING)})}


SHAPES: Shapes = {
    "window": {"pass": Move(), "play": Move({"slot": SLOT})},
    "pass_commit": {"pass": Move({"commit": COMMIT})},
    "pass_open": {"pass_open": Move({}, {"index": INDEX, "slot": SLOT, "open": GIVE_UP})},
    "seal": {"seal": Move({"commit": COMMIT})},
    "flock": opening("flock"),
    "show": opening("show"),
    "rest": opening("rest"),
    "scry_token": {"token": Move({"open": ListOf(TOKEN_OPENING)})},
}
