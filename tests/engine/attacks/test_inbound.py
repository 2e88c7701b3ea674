"""No message can stop a peer: every inbound frame passes one guard, every failure becomes a
refusal naming its sender, buffers and replies stay bounded."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.protocol.wire import MAX_DEPTH
from tests.engine.attacks.common import Never, digests, signed, stranger, wire
from tests.engine.harness import Harness, make_table, play


async def quiet_table(seats: int = 3) -> Harness:
    """A started table whose players never move (so its state stays put)."""
    h = await make_table(seats, players={i: Never() for i in range(seats)})
    await play(h, seats)
    return h


def nested(depth: int) -> str:
    return '{"k": "post", "m": ' + "[" * depth + "]" * depth + "}"


FRAMES = [
    nested(100_000),
    nested(MAX_DEPTH + 2),
    '{"k": "entry", "e": {"seq": 1e400}}',
    '{"k": "entry", "e": {"seq": NaN}}',
    '{"k": "checkpoint", "seq": 0.5, "hash": "x", "hsig": "y", "host": "p0"}',
    '{"k": 7}',
    "[1, 2, 3]",
    '{"k": "entries", "e": [{"seq": 999999, "prev": 1}]}',
    '{"k": "sync", "from": true}',
    '{"k": "refused", "id": {"a": 1}}',
]


@pytest.mark.parametrize("frame", FRAMES)
async def test_a_malformed_frame_is_refused_and_every_peer_goes_on(frame: str) -> None:
    h = await quiet_table()
    before = digests(h)
    h.peers[2].transport.send("p0", frame)
    h.peers[2].transport.send("p1", frame)
    await h.settle()  # raises if a receiver died
    assert any(e.peer == "p2" for e in h.peers[0].errors)
    assert digests(h) == before
    await h.peers[0].submit(
        h.peers[0].rules.legal_actions(h.peers[0].table.state, 0, h.peers[0].knowledge)[0]
    )
    await h.settle()
    assert h.peers[0].table.commits.get(0), "the host still sequences"
    await h.bus.close()


async def test_a_stranger_is_refused_before_its_frame_is_parsed() -> None:
    h = await quiet_table()
    intruder = stranger(h)
    intruder.send("p0", nested(100_000))
    intruder.send("p1", wire({"k": "sync", "from": 0}))
    sent_before = h.bus.messages
    await h.settle()
    assert all(any(e.peer == "intruder" for e in p.errors) for p in h.peers[:2])
    assert h.bus.messages == sent_before, "nobody answered the stranger"
    await h.bus.close()


BODIES: list[dict[str, Any]] = [
    {
        "t": "complaint",
        "plain": json.dumps({"from": 0, "to": 2, "room": "room-1", "game": "game-1", "keys": {}}),
        "sig": "zz",
    },
    {"t": "complaint", "plain": "[[[[", "sig": "00" * 64},
    {"t": "complaint", "slot": True},
    {"t": "complaint", "dealer": "0"},
    {"t": "deliver", "to": 0, "slots": [1, "1", None], "box": "00"},
    {"t": "preimages", "event": 1, "values": {"2": "00" * 32}},
    {"t": "reveal", "keys": {"2": {}}},
    {"t": "action", "action": {"type": "seal", "seat": 2, "commit": ["zz"]}},
    {"t": "action", "action": {"type": "open", "seat": 2, "open": [{"index": 0, "nonce": 5}]}},
    {"t": "action", "action": {"type": "open", "seat": 2, "open": [{"index": {"a": 1}}]}},
    {
        "t": "action",
        "action": {
            "type": "open",
            "seat": 2,
            "index": 0,
            "nonce": "00" * 32,
            "item": {"slot": "x"},
        },
    },
    {"t": "action", "action": {"type": "open", "seat": 2, "show": ["1"]}},
    {"t": "keys", "keys": {"x": "y"}},
    {"t": "escrow", "seat": [0], "share": "00"},
    {"t": "share", "to": {"x": 1}, "share": 5},
    {"t": "cardkeys", "keys": [1]},
    {"t": "audit", "secret": "ff" * 32},
    {"t": "reshuffle1", "r": None, "xs": {}},
    {"t": "chain", "tip": "00" * 32, "shares": {"commitments": ["zz"], "boxes": []}},
    {"t": "kick", "seat": "all"},
    {"t": "timeout", "seat": -1},
    {"t": "nonsense"},
]


@pytest.mark.parametrize("body", BODIES, ids=lambda b: str(b.get("t")))
async def test_a_signed_but_malformed_message_is_refused_naming_its_author(
    body: dict[str, Any],
) -> None:
    h = await quiet_table()
    before = digests(h)
    envelope = await signed(h, 2, body)
    h.peers[2].transport.send("p0", wire({"k": "post", "m": envelope}))
    await h.settle()
    assert any(e.peer == "p2" for e in h.peers[0].errors)
    assert digests(h) == before
    assert not h.peers[0].halted
    await h.bus.close()


async def test_an_entry_pushed_by_a_player_never_blames_the_host() -> None:
    h = await quiet_table()
    host = h.peers[0]
    envelope = await signed(h, 2, {"t": "leave"})
    ahead = {
        "seq": len(host.table.log) + 1,
        "prev": "00" * 32,
        "msg": envelope,
        "host": "p0",
        "hsig": "00" * 64,
    }
    h.peers[2].transport.send("p1", wire({"k": "entry", "e": ahead}))
    await h.settle()
    await host.submit(host.rules.legal_actions(host.table.state, 0, host.knowledge)[0])
    await h.settle()
    await h.peers[1].submit(
        h.peers[1].rules.legal_actions(h.peers[1].table.state, 1, h.peers[1].knowledge)[0]
    )
    await h.settle()
    victim = h.peers[1]
    assert not any(e.peer == "p0" for e in victim.errors), "the honest host is not blamed"
    assert any(e.peer == "p2" for e in victim.errors), "the pusher is"
    assert len(digests(h)) == 1
    await h.bus.close()


async def test_buffers_and_sync_replies_stay_bounded() -> None:
    h = await quiet_table()
    host = h.peers[0]
    for seq in range(len(host.table.log) + 1, len(host.table.log) + 2000):
        h.peers[2].transport.send("p1", wire({"k": "entry", "e": {"seq": seq, "prev": ""}}))
    await h.settle()
    assert len(h.peers[1].buffer) <= 256
    sent = h.bus.bytes
    for _ in range(150):
        h.peers[2].transport.send("p0", wire({"k": "sync", "from": 0}))
    await h.settle()
    one_log = len(wire({"k": "entries", "e": host.table.log}))
    assert h.bus.bytes - sent < 3 * one_log, "150 syncs in a row cost about one log"
    await h.bus.close()
