"""Malformed and dishonest variants of a real move, for fuzzing the rules' guards."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from engine.core.model import Action

JUNK: tuple[Any, ...] = (
    None,
    True,
    False,
    -1,
    2**70,
    -(2**70),
    1.5,
    float("nan"),
    "",
    "nope",
    "x" * 5000,
    [],
    {},
    [[[]]],
    {"a": {"b": [None]}},
    [None, True, "x"],
    (1, 2),
    {1, 2},
    b"raw",
)
"""Values of every wrong kind: bools, huge and negative integers, floats, nested junk, and
values that are not JSON at all."""


def variants(value: Any, others: list[int]) -> Iterator[Any]:
    """Wrong values in place of ``value``: junk, and near misses of its own kind (an unknown
    card id, a slot or seat not in play, a list too long, too short or holding junk)."""
    yield from JUNK
    if isinstance(value, bool):
        yield int(value)
    elif isinstance(value, int):
        yield value + 1
        yield value - 1
        yield 99_999
        yield bool(value)
        yield str(value)
        yield from others
    elif isinstance(value, str):
        yield value + "_unknown"
        yield value.upper()
        yield 0
    elif isinstance(value, list):
        yield value + value
        yield value[:-1]
        yield [*value, None]
        yield [*value, {"index": 0}]
        yield list(reversed(value))
        if value:
            yield [value[0]] * 65
    elif isinstance(value, dict):
        yield list(value.values())
        yield {**value, "index": -1}


def mutations(action: Action, others: list[int]) -> Iterator[Action]:
    """Variants of ``action``: each field dropped, replaced by a wrong value or moved to another
    seat's; an unexpected field; every field of a nested record (an opening, say) the same."""
    for key in list(action):
        yield {k: v for k, v in action.items() if k != key}
        for wrong in variants(action[key], others):
            yield {**action, key: wrong}
    yield {**action, "extra": 1}
    yield {**action, "type": "settle"}
    yield {**action, "type": "chance", "value": 0}
    for seat in others:
        yield {**action, "seat": seat}
    for key, value in action.items():
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, dict):
                    for inner in nested(item, others):
                        out = copy.deepcopy(action)
                        out[key][i] = inner
                        yield out


def nested(record: dict[str, Any], others: list[int]) -> Iterator[Any]:
    """Variants of one nested record: a field dropped, replaced or added; the record replaced."""
    for key in list(record):
        yield {k: v for k, v in record.items() if k != key}
        for wrong in variants(record[key], others):
            yield {**record, key: wrong}
    yield {**record, "extra": [1]}
    yield from JUNK
