"""``LocalTable``'s commitments: each item's digest is SHA-256 of the canonical JSON of
``{"seat", "phase", "i", "item"}``, whichever way the table writes that text."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from engine.core.local_table import LocalTable
from engine.core.model import canonical_json
from engine.games.rumble import RumbleRules


def reference(seat: Any, phase: Any, items: list[Any]) -> list[str]:
    return [
        hashlib.sha256(
            canonical_json({"seat": seat, "phase": phase, "i": i, "item": item})
        ).hexdigest()
        for i, item in enumerate(items)
    ]


def test_commitments_are_the_digests_of_the_canonical_json() -> None:
    rng = random.Random(4)
    table = LocalTable(RumbleRules(), {"seats": 6})
    places = ["source", "quality", "delivery", 'кв"\\x', ""]
    for _ in range(300):
        items: list[Any] = [
            {"slot": rng.randrange(120), "as": rng.choice(places)} for _ in range(rng.randrange(4))
        ]
        items += [{"initiative": rng.randrange(100)}, {"a": [1, None, True, "é"], "b": {"c": -3}}]
        seat = rng.choice([0, 1, 5, True])  # True: not a plain number, written by the encoder
        phase = rng.choice(["assembly", 'фаза "x"', ""])
        action = {"type": "seal", "seat": seat, "secret": {"items": items}}
        public = table.public(seat, action, phase)
        assert public["commit"] == reference(seat, phase, items)
        assert "secret" not in public and table.committed[seat] == items
