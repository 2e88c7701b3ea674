"""The host's word is checked: a move it drops is seen by every peer, a timeout over a held move
or before the seat's time is refused and names the host, and the present seats replace it by a
majority of signed votes, never on one peer's word."""

from __future__ import annotations

from typing import Any

import pytest

from engine.protocol.envelope import make_envelope
from engine.protocol.errors import ProtocolError
from engine.protocol.peer import Peer
from engine.protocol.table import Table
from tests.engine.attacks.common import digests, next_entry, wire
from tests.engine.harness import DishonestSequencer, Harness, make_table, play


class Silent(Peer):
    """Never posts a move (not even its timer's automatic one)."""

    async def _act_once(self) -> bool:
        if self.seat is not None and self.table.obligations().get(self.seat) == "action":
            return False
        return await super()._act_once()


class DropsSeatTwo(DishonestSequencer):
    """Never sequences seat 2's moves; its own timer then times seat 2 out."""

    def drop(self, envelope: Any) -> bool:
        return envelope.get("from") == "p2" and envelope["body"].get("t") == "action"


async def run(h: Harness, seconds: float, steps: int) -> None:
    for _ in range(steps):
        await h.advance(seconds / steps)
        if all(p.table.stage == "done" for p in h.peers[1:]):
            return


async def test_a_host_that_sits_on_a_move_is_replaced_and_the_move_goes_in() -> None:
    h = await make_table(4, peer_class={0: DropsSeatTwo}, skew={1: 0.3, 2: -0.2, 3: 0.1})
    await play(h, 4)
    await run(h, 200, 100)
    honest = h.peers[1:]
    assert all(p.host == "p1" for p in honest), [p.host for p in honest]
    assert all(any(e.peer == "p0" for e in p.errors) for p in honest), "the host is named"
    table = honest[0].table
    assert table.deposed == ["p0"] and table.stage == "done"
    assert 2 not in table.blame and 2 not in table.out, "the censored seat is not blamed"
    moves = [e["msg"] for e in table.log if e["msg"]["from"] == "p2"]
    assert any(m["body"]["t"] == "action" for m in moves), "its move went in after all"
    assert len(digests(h, skip={"p0"})) == 1
    await h.bus.close()


async def censorship_of_seat_two_refused(h: Harness) -> Table:
    """Play ``h`` (a host that censors seat 2, four-second timers) to the end: every honest peer
    names the host, follows p1, and never took the timeout in. The first honest peer's table."""
    await h.peers[0].start({"seats": 4}, timer=4)
    await h.settle()
    await run(h, 300, 150)
    honest = h.peers[1:]
    for peer in honest:
        assert any(e.peer == "p0" and "censored seat 2" in e.reason for e in peer.errors)
        assert peer.host == "p1"
    table = honest[0].table
    assert 2 not in table.out, "the timeout never went in"
    assert table.stage == "done" and table.deposed == ["p0"]
    assert len(digests(h, skip={"p0"})) == 1
    return table


async def test_a_timeout_over_a_move_the_peers_hold_is_refused_as_censorship() -> None:
    h = await make_table(4, peer_class={0: DropsSeatTwo}, host_timeout=600, skew={3: 0.4})
    await censorship_of_seat_two_refused(h)
    await h.bus.close()


async def test_a_timeout_before_the_seat_s_time_is_up_is_refused() -> None:
    h = await make_table(3, players={2: _Never()})
    await play(h, 3)
    host = h.peers[0]
    assert host.table.obligations().get(2) == "action"
    await host._post({"t": "timeout", "seat": 2})  # the host's own clock has not moved
    await h.settle()
    for peer in h.peers[1:]:
        assert any(e.peer == "p0" and "before its time" in e.reason for e in peer.errors)
        assert 2 not in peer.table.out
    await h.bus.close()


async def test_one_peer_cannot_depose_a_live_host() -> None:
    h = await make_table(4, players={3: _Never()})
    await play(h, 4)
    successor = h.peers[1]
    table = successor.table
    before = digests(h)
    own_vote = await make_envelope(
        h.backend,
        successor.bundle.sign,
        "room-1",
        "game-1",
        "p1",
        table.head,
        {"t": "depose", "host": "p0"},
    )
    for votes in ([], [own_vote]):
        body = {"t": "takeover", "votes": votes}
        envelope = await make_envelope(
            h.backend, successor.bundle.sign, "room-1", "game-1", "p1", table.head, body
        )
        with pytest.raises(ProtocolError, match="cannot depose"):
            await successor._sequence(envelope, "p1")
        # Sent to the others as an entry, it is refused there too.
        entry = await next_entry(h, 1, envelope, table)
        successor.transport.broadcast(wire({"k": "entry", "e": entry}))
        await h.settle()
    assert all(p.host == "p0" for p in h.peers)
    assert all(
        any(e.peer == "p1" and "cannot depose" in e.reason for e in p.errors) for p in h.peers[2:]
    )
    assert digests(h) == before
    await h.bus.close()


async def test_a_forged_vote_is_refused() -> None:
    h = await make_table(3, players={i: _Never() for i in range(3)})
    await play(h, 3)
    liar = h.peers[2]
    forged = await make_envelope(
        h.backend,
        liar.bundle.sign,
        "room-1",
        "game-1",
        "p1",
        liar.table.head,
        {"t": "depose", "host": "p0"},
    )
    liar.transport.send("p1", wire({"k": "vote", "m": forged}))
    await h.settle()
    assert any(e.peer == "p2" and "signature" in e.reason for e in h.peers[1].errors)
    assert not h.peers[1].votes.at("p0", h.peers[1].table.head)
    await h.bus.close()


class _Never:
    async def choose(self, *args: Any) -> None:
        return None


async def test_a_reloaded_peer_takes_the_hosts_timeout_for_an_earlier_obligation() -> None:
    """It cannot know how long the seat has been due: it must not refuse (and stall) on it."""
    h = await make_table(3, peer_class={2: Silent})
    await play(h, 3, timer=30)
    await h.advance(20, steps=4)  # seat 2 has been due for 20 s
    fresh = await h.reload(1, seed=7)
    await h.advance(30, steps=6)  # the host times seat 2 out at 35 s
    kinds = [e["msg"]["body"]["t"] for e in h.peers[0].table.log]
    assert "timeout" in kinds, "the host timed the silent seat out (the log chose for it)"
    assert not any("before its time" in e.reason for e in fresh.errors)
    assert len(fresh.table.log) == len(h.peers[0].table.log), "the reloaded peer keeps up"
    assert len(digests(h)) == 1
    await h.bus.close()
