"""A successor that sat on a majority's votes cannot rewind the game: a takeover at an old
point of the log undoes only entries recent enough that a silent host could have been voted out
over them (``HostWatch._yield_to_takeover``)."""

from __future__ import annotations

import json
from typing import Any

from engine.protocol.envelope import entry_hash, make_envelope, sign_entry
from engine.protocol.peer import Peer
from engine.protocol.peer_state import wire_text
from engine.protocol.watch import votes_needed
from tests.engine.harness import Harness, make_table, play


class SitsOnVotes(Peer):
    """The successor: once a majority has voted out the host, it keeps the takeover to itself
    and plays on; ``rewind`` sends it later, at the point the votes were cast."""

    kept: dict[str, Any] | None = None

    async def _take_over(self) -> None:
        table = self.table
        ballots = self.votes.at(self.host, table.head)
        if self.kept is not None or len(ballots) < votes_needed(len(table.voters())):
            return
        body = {"t": "takeover", "votes": ballots}
        envelope = await make_envelope(
            self.backend, self.bundle.sign, self.room, self.game, self.id, table.head, body
        )
        self.kept = {"seq": len(table.log), "prev": table.head, "msg": envelope, "host": self.id}

    async def rewind(self) -> None:
        """Sign the kept takeover as a log entry and send it to everyone."""
        assert self.kept is not None
        entry = dict(self.kept)
        entry["hsig"] = await sign_entry(
            self.backend, self.bundle.sign, self.room, self.game, entry["seq"], entry_hash(entry)
        )
        self.transport.broadcast(wire_text({"k": "entry", "e": entry}))


async def stalled_host_voted_out_then_back(h: Harness) -> SitsOnVotes:
    """From seat 2's bid the host's entries stall until both other seats have voted it out (seat
    2 waits on its bid, seat 1 holds it); then they arrive and the table plays on under the old
    host."""
    stalled: list[tuple[str, str]] = []
    state: dict[str, Any] = {}

    def stall(sender: str, to: str, message: str) -> str | None:
        if sender == "p0" and '"k":"entry"' in message:
            msg = json.loads(message)["e"]["msg"]
            body = msg["body"]
            if body["t"] == "action" and body["action"]["type"] == "bid" and msg["from"] == "p2":
                state.setdefault("stalling", True)
            if state.get("stalling"):
                stalled.append((to, message))
                return None
        if sender == "p2" and to == "p1" and '"k":"vote"' in message and state.get("stalling"):
            state["stalling"] = False
            h.bus.endpoints["p1"].queue.put_nowait(("p2", message))
            for receiver, held in stalled:  # right after this vote: the host is back
                h.bus.endpoints[receiver].queue.put_nowait(("p0", held))
            stalled.clear()
            return None
        return message

    h.bus.tamper = stall
    await play(h, 3, timer=30)
    for _ in range(120):
        await h.advance(1)
        if "stalling" in state and not state["stalling"]:
            break
    h.bus.tamper = None
    successor = h.peers[1]
    assert isinstance(successor, SitsOnVotes)
    return successor


async def test_a_takeover_kept_past_the_window_rewinds_nobody() -> None:
    h = await make_table(3, peer_class={1: SitsOnVotes})
    successor = await stalled_host_voted_out_then_back(h)
    assert successor.kept is not None, "the seats never voted the stalled host out"
    votes_at = successor.kept["seq"]
    await h.advance(200, steps=40)  # the game goes on under the old host, past the window
    host, honest = h.peers[0], h.peers[2]
    assert len(honest.table.log) > votes_at + 1
    lengths = [len(p.table.log) for p in h.peers]
    await successor.rewind()
    await h.settle()
    for peer in (host, honest):
        assert not any("starting over" in str(e) for e in peer.errors), peer.errors
        assert peer.host == "p0"
    assert [len(p.table.log) for p in h.peers] == lengths
    assert host.table.digest() == honest.table.digest()
    await h.bus.close()


async def test_the_same_takeover_sent_at_once_is_yielded_to() -> None:
    """The control: sent while the host's sequel is recent, the same takeover is the table's:
    both other peers yield to it and start over (from the successor, which here never took its
    own takeover in, so they get its log back: only the yielding is the point)."""
    h = await make_table(3, peer_class={1: SitsOnVotes})
    successor = await stalled_host_voted_out_then_back(h)
    assert successor.kept is not None
    await h.settle()
    await successor.rewind()
    await h.settle()
    host, honest = h.peers[0], h.peers[2]
    for peer in (host, honest):
        assert any("starting over" in str(e) for e in peer.errors), peer.errors
    await h.bus.close()
