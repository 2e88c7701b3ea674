"""Canonical JSON refuses floats where data comes in, so a state never holds one; the state hash,
which skips that walk, is the SHA-256 of the same canonical bytes."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import canonical_dump, canonical_json, compact_text
from engine.games.rumble import RumbleRules
from engine.protocol.envelope import envelope_shape_error


@pytest.mark.parametrize("value", [1.5, {"a": [1, {"b": 0.0}]}, [[2.0]], {"x": float("inf")}])
def test_canonical_json_refuses_floats_at_any_depth(value: object) -> None:
    with pytest.raises(TypeError):
        canonical_json(value)


def test_a_message_carrying_a_float_is_malformed() -> None:
    envelope = {
        "room": "r", "game": "g", "from": "p1", "prev": "0" * 64, "sig": "0" * 128,
        "body": {"t": "move", "action": {"card": 1.5}},
    }  # fmt: skip
    assert envelope_shape_error(envelope) == "message is not canonical JSON"
    envelope["body"] = {"t": "move", "action": {"card": 1}}
    assert envelope_shape_error(envelope) is None


def test_the_state_hash_is_the_hash_of_the_checked_canonical_form() -> None:
    rules = RumbleRules()
    table = LocalTable(rules, {"seats": 4}, seed=5)
    bot = RandomBot(5)
    for _ in range(60):
        expected = hashlib.sha256(canonical_json(rules.to_json(table.state))).hexdigest()
        assert rules.state_hash(table.state) == expected
        if not table.step(bot.choose):
            break


def test_message_ids_and_entry_hashes_hash_the_canonical_bytes() -> None:
    """They skip the float walk, not the canonical form: the same bytes as ``canonical_json``."""
    from engine.protocol.envelope import entry_hash, message_id

    envelope = {
        "room": "r", "game": "g", "from": "p1", "prev": "0" * 64, "sig": "0" * 128,
        "body": {"t": "move", "action": {"card": 1, "name": "Аня"}},
    }  # fmt: skip
    entry = {"seq": 3, "prev": "1" * 64, "msg": envelope, "host": "p0", "hsig": "x"}
    assert message_id(envelope) == hashlib.sha256(canonical_json(envelope)).hexdigest()
    core = {k: v for k, v in entry.items() if k != "hsig"}
    assert entry_hash(entry) == hashlib.sha256(canonical_json(core)).hexdigest()


async def test_an_entry_whose_message_holds_a_float_is_refused_before_anything_changes() -> None:
    """The dishonest host of the float-free hashes: a frame with a float never parses, but an
    entry given to the table another way, signed by the host, is still refused as malformed
    (the envelope check) and changes nothing; the hash of it is computed without a crash."""
    from engine.protocol.errors import ProtocolError
    from tests.engine.attacks.common import next_entry
    from tests.engine.harness import make_table, play

    h = await make_table(2)
    await play(h, 2)
    table = h.peers[1].table
    before = (len(table.log), table.head)
    envelope = {
        "room": "room-1", "game": "game-1", "from": "p0", "prev": table.head, "sig": "0" * 128,
        "body": {"t": "chat", "text": 1.5},
    }  # fmt: skip
    entry = await next_entry(h, 0, envelope, table)
    with pytest.raises(ProtocolError, match="not canonical JSON"):
        await table.accept(entry, "p0")
    assert (len(table.log), table.head) == before
    await h.bus.close()


def test_the_compact_text_is_json_dumps_with_sorted_keys() -> None:
    """The encoder built once writes what ``json.dumps`` writes, and refuses what it refuses."""
    rng = random.Random(11)
    words = ["", "a", "ё", "ключ", 'q"\\', "\u2028", "\x00", "🂡", "z" * 40]

    def value(depth: int) -> object:
        kind = rng.randrange(8 if depth < 4 else 5)
        if kind == 0:
            return rng.choice([0, -1, 1, 2**70, -(2**64), 97])
        if kind == 1:
            return rng.choice([True, False, None])
        if kind == 2:
            return rng.choice(words)
        if kind == 3:
            return rng.choice([0.5, -2.0, 1e300, float("inf")])
        if kind == 4:
            return ()
        if kind == 5:
            return [value(depth + 1) for _ in range(rng.randrange(4))]
        if kind == 6:
            return tuple(value(depth + 1) for _ in range(rng.randrange(3)))
        return {rng.choice(words): value(depth + 1) for _ in range(rng.randrange(5))}

    for _ in range(500):
        item = value(0)
        expected = json.dumps(item, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert compact_text(item) == expected
        assert canonical_dump(item) == expected.encode()
    for bad in ({1, 2}, {"k": object()}, [b"bytes"]):
        with pytest.raises(TypeError):
            compact_text(bad)
